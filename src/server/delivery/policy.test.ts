import { describe, expect, it } from 'vitest';
import {
  expiryCheckMs,
  historyOf,
  MAX_EXPIRY_CHECK_MS,
  MAX_TRIES_PER_METHOD,
  MAX_WAIT_DELAY_SECONDS,
  methodsToTry,
  nextStep,
  waitDelaySeconds,
  type PastAttempt,
  type PolicyLimits,
} from './policy.ts';
import type { DeliveryMethod } from './types.ts';

const SMPP: DeliveryMethod = 'MELROSE_SMPP';
const VONAGE: DeliveryMethod = 'VONAGE_SMS';
const GATEWAY: DeliveryMethod = 'WORLD_SPECIAL';
const MINUTE = 60_000;

const limits: PolicyLimits = {
  validityMs: 48 * 60 * MINUTE,
  outageFailoverMs: 10 * MINUTE,
  retryDelaySeconds: 1,
};

const attempt = (
  method: DeliveryMethod,
  state: string,
  ageMs = 0,
): PastAttempt => ({ method, state, ageMs });

/** nextStep for `outcome` on `method` after `attempts`, as the engine calls it. */
function decide(
  outcome: Parameters<typeof nextStep>[0],
  {
    method = SMPP,
    attempts = [] as PastAttempt[],
    moreMethods = false,
    lastRun = false,
    messageAgeMs = 0,
  } = {},
) {
  return nextStep(
    outcome,
    {
      method,
      history: historyOf(attempts),
      moreMethods,
      lastRun,
      messageAgeMs,
    },
    limits,
  );
}

describe('methodsToTry: the order of methods in one run', () => {
  it('is the route, without methods that refused or used up their tries', () => {
    const history = historyOf([
      attempt(SMPP, 'REFUSED'),
      ...Array.from({ length: MAX_TRIES_PER_METHOD }, () =>
        attempt(VONAGE, 'FAILED'),
      ),
    ]);
    expect(methodsToTry([SMPP, VONAGE, GATEWAY], history, limits)).toEqual([
      GATEWAY,
    ]);
    expect(
      methodsToTry(
        [SMPP, VONAGE],
        historyOf([attempt(VONAGE, 'FAILED')]),
        limits,
      ),
    ).toEqual([SMPP, VONAGE]);
  });

  it('puts a method out of reach past the failover bound last, and only then', () => {
    const long = historyOf([attempt(SMPP, 'UNAVAILABLE', 11 * MINUTE)]);
    expect(methodsToTry([SMPP, VONAGE], long, limits)).toEqual([VONAGE, SMPP]);
    const short = historyOf([attempt(SMPP, 'UNAVAILABLE', 2 * MINUTE)]);
    expect(methodsToTry([SMPP, VONAGE], short, limits)).toEqual([SMPP, VONAGE]);
    // An attempt after the outage ended it.
    const over = historyOf([
      attempt(SMPP, 'UNAVAILABLE', 11 * MINUTE),
      attempt(SMPP, 'DELIVERED', MINUTE),
    ]);
    expect(methodsToTry([SMPP, VONAGE], over, limits)).toEqual([SMPP, VONAGE]);
  });
});

describe('nextStep: after an outcome the provider did not take', () => {
  it('a refusal is recorded and the next method is tried at once', () => {
    expect(decide({ kind: 'refused', error: 'x' })).toEqual({
      do: 'record-and-next',
      state: 'REFUSED',
    });
  });

  it(`a transient failure waits for the queue's backoff until the ${MAX_TRIES_PER_METHOD}rd try, then moves on`, () => {
    const failed = { kind: 'retry' as const, error: 'no answer' };
    expect(decide(failed)).toEqual({ do: 'record-and-retry-later' });
    expect(decide(failed, { attempts: [attempt(SMPP, 'FAILED')] })).toEqual({
      do: 'record-and-retry-later',
    });
    expect(
      decide(failed, {
        attempts: [attempt(SMPP, 'FAILED'), attempt(SMPP, 'FAILED')],
      }),
    ).toEqual({ do: 'record-and-next', state: 'FAILED' });
    // Another method's failures do not count against this one.
    expect(decide(failed, { attempts: [attempt(VONAGE, 'FAILED')] })).toEqual({
      do: 'record-and-retry-later',
    });
  });

  it("on the queue's last run a transient failure moves on at once", () => {
    expect(decide({ kind: 'retry', error: 'x' }, { lastRun: true })).toEqual({
      do: 'record-and-next',
      state: 'FAILED',
    });
  });

  it('a method out of reach is waited for without a try, noted once per outage', () => {
    const down = { kind: 'unavailable' as const, error: 'bind down' };
    expect(decide(down)).toEqual({
      do: 'wait',
      delaySeconds: 1,
      noteUnavailable: true,
    });
    expect(
      decide(down, { attempts: [attempt(SMPP, 'UNAVAILABLE', 2 * MINUTE)] }),
    ).toEqual({ do: 'wait', delaySeconds: 30, noteUnavailable: false });
  });

  it('fails over after the outage bound when another method is left, else keeps waiting', () => {
    const down = { kind: 'unavailable' as const, error: 'bind down' };
    const long = [attempt(SMPP, 'UNAVAILABLE', 11 * MINUTE)];
    expect(decide(down, { attempts: long, moreMethods: true })).toEqual({
      do: 'next',
    });
    expect(decide(down, { attempts: long, moreMethods: false })).toEqual({
      do: 'wait',
      delaySeconds: MAX_WAIT_DELAY_SECONDS,
      noteUnavailable: false,
    });
  });

  it('our own flow control waits the first retry delay and records nothing', () => {
    expect(decide({ kind: 'busy', error: 'window full' })).toEqual({
      do: 'wait',
      delaySeconds: 1,
      noteUnavailable: false,
    });
  });

  it('waiting ends with the validity: the message gives up', () => {
    const old = { messageAgeMs: limits.validityMs };
    expect(decide({ kind: 'unavailable', error: 'x' }, old)).toEqual({
      do: 'give-up',
    });
    expect(decide({ kind: 'busy', error: 'x' }, old)).toEqual({
      do: 'give-up',
    });
    // A provider's answer is not waiting: validity does not change it.
    expect(decide({ kind: 'refused', error: 'x' }, old)).toEqual({
      do: 'record-and-next',
      state: 'REFUSED',
    });
  });
});

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

describe('expiryCheckMs: how often SUBMITTED messages are checked for expiry', () => {
  it('is a quarter of the validity, at most once a minute', () => {
    expect(expiryCheckMs(3)).toBe(750);
    expect(expiryCheckMs(120)).toBe(30_000);
    expect(expiryCheckMs(172_800)).toBe(MAX_EXPIRY_CHECK_MS);
    expect(MAX_EXPIRY_CHECK_MS).toBe(60_000);
  });
});
