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

/**
 * The "nothing happens within `ms`" waits, where no event can tell that something did not
 * happen (a refusal that must not come, a job that must stay put): runs `check`, which throws
 * (an `expect`) once the thing has happened, every `interval` ms until `ms` have passed and once
 * more at the end. Unlike a sleep followed by one check, it fails as soon as the thing happens.
 * Each caller says why its window is long enough.
 */
export async function nothingWithin(
  ms: number,
  check: () => unknown,
  { interval = 50 } = {},
): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    await check();
    const left = deadline - Date.now();
    if (left <= 0) return;
    await new Promise((r) => setTimeout(r, Math.min(interval, left)));
  }
}
