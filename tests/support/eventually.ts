import { inspect } from 'node:util';

/**
 * Polls `get` until `ok` holds of its value, and returns that value, for the waits whose result
 * the test reads next (a message's detail, a callback's attempts). A `get` that throws is tried
 * again, as expect.poll does. Unlike expect.poll it also works in hooks (beforeAll seeding);
 * where only a condition matters, tests call expect.poll themselves.
 */
export async function eventually<T>(
  get: () => T | Promise<T>,
  ok: (value: T) => boolean,
  { what = 'a condition', timeout = 10_000, interval = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: { value: T } | { error: unknown } | undefined;
  for (;;) {
    try {
      const value = await get();
      if (ok(value)) return value;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, interval));
  }
  const seen =
    last && 'error' in last
      ? `last try threw ${String(last.error)}`
      : `last value ${inspect(last?.value, { depth: 3 })}`;
  throw new Error(`waiting for ${what}: not within ${timeout} ms (${seen})`);
}
