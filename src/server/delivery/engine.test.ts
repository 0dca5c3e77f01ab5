import { describe, expect, it } from 'vitest';
import { MAX_WAIT_DELAY_SECONDS, waitDelaySeconds } from './engine.ts';

describe('waitDelaySeconds: when to look again at a method out of reach', () => {
  it('starts at the first retry delay and grows with the outage, capped', () => {
    expect(waitDelaySeconds(0, 1)).toBe(1);
    expect(waitDelaySeconds(2_000, 1)).toBe(1);
    expect(waitDelaySeconds(20_000, 1)).toBe(5);
    expect(waitDelaySeconds(60_000, 1)).toBe(15);
    expect(waitDelaySeconds(3_600_000, 1)).toBe(MAX_WAIT_DELAY_SECONDS);
    expect(MAX_WAIT_DELAY_SECONDS).toBe(30);
  });
});
