import { expect } from 'vitest';

/**
 * Polls `get` until `ok` holds of its value, and returns that value: Vitest's expect.poll, for
 * the waits whose result the test reads next (a message's detail, a callback's attempts).
 * Where only a condition matters, tests call expect.poll themselves.
 */
export async function eventually<T>(
  get: () => T | Promise<T>,
  ok: (value: T) => boolean,
  { what = 'a condition', timeout = 10_000, interval = 50 } = {},
): Promise<T> {
  let last: T | undefined;
  await expect
    .poll(async () => (last = await get()), {
      timeout,
      interval,
      message: `waiting for ${what}`,
    })
    .toSatisfy(ok);
  return last as T;
}
