import { describe, expect, it } from 'vitest';
import { nothingWithin } from './eventually.ts';

describe('nothingWithin', () => {
  it('checks all through the window and once at its end', async () => {
    let checks = 0;
    const began = performance.now();
    await nothingWithin(120, () => (checks += 1), { interval: 30 });
    expect(performance.now() - began).toBeGreaterThanOrEqual(119);
    expect(checks).toBeGreaterThanOrEqual(4);
  });

  it('fails as soon as the thing happens, not at the end of the window', async () => {
    let happened = false;
    setTimeout(() => (happened = true), 50);
    const began = performance.now();
    await expect(
      nothingWithin(5_000, () => expect(happened).toBe(false), {
        interval: 10,
      }),
    ).rejects.toThrow();
    expect(performance.now() - began).toBeLessThan(2_000);
  });
});
