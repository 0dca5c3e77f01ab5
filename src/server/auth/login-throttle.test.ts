import { describe, expect, it } from 'vitest';
import { LoginThrottle, type Attempt } from './login-throttle.ts';

const isAttempt = (a: Attempt | number): a is Attempt => typeof a !== 'number';

describe('LoginThrottle', () => {
  it('counts a reserved try before its check ends: the 11th at once is refused', () => {
    const throttle = new LoginThrottle();
    const now = 1_000_000;
    const tries = Array.from({ length: 11 }, () =>
      throttle.reserveUser('ada@example.test', '192.0.2.1', now),
    );
    expect(tries.slice(0, 10).every(isAttempt)).toBe(true);
    expect(tries[10]).toBe(60);
  });

  it('gives a try back when it was right', () => {
    const throttle = new LoginThrottle();
    const now = 1_000_000;
    for (let i = 0; i < 20; i++) {
      const attempt = throttle.reserveUser(
        'ada@example.test',
        '192.0.2.1',
        now,
      );
      if (!isAttempt(attempt)) throw new Error('refused');
      attempt.succeeded();
    }
  });

  it('limits an account per address, and across addresses only at the higher cap', () => {
    const throttle = new LoginThrottle();
    const now = 1_000_000;
    for (let i = 0; i < 10; i++) throttle.reserveUser('ada', '192.0.2.1', now);
    expect(throttle.reserveUser('ada', '192.0.2.1', now)).toBeGreaterThan(0);
    expect(isAttempt(throttle.reserveUser('ada', '192.0.2.2', now))).toBe(true);
    // Ten more addresses reach the account's cap of 100 ...
    for (let a = 3; a < 13; a++) {
      for (let i = 0; i < 10; i++)
        throttle.reserveUser('ada', `192.0.2.${a}`, now);
    }
    expect(throttle.reserveUser('ada', '198.51.100.1', now)).toBeGreaterThan(0);
  });

  it('keeps the owner in at an address where they signed in, past the account cap', () => {
    const throttle = new LoginThrottle();
    const now = 1_000_000;
    const own = throttle.reserveUser('ada', '198.51.100.7', now);
    if (!isAttempt(own)) throw new Error('refused');
    own.succeeded();
    for (let a = 0; a < 12; a++) {
      for (let i = 0; i < 10; i++)
        throttle.reserveUser('ada', `192.0.2.${a}`, now);
    }
    expect(throttle.reserveUser('ada', '198.51.100.99', now)).toBeGreaterThan(
      0,
    );
    expect(isAttempt(throttle.reserveUser('ada', '198.51.100.7', now))).toBe(
      true,
    );
  });

  it('gives a cancelled try back without making the address known', () => {
    const throttle = new LoginThrottle();
    const now = 1_000_000;
    for (let i = 0; i < 20; i++) {
      const attempt = throttle.reserveUser('ada', '192.0.2.1', now);
      if (!isAttempt(attempt)) throw new Error('refused');
      attempt.cancel();
    }
    for (let a = 0; a < 12; a++) {
      for (let i = 0; i < 10; i++)
        throttle.reserveUser('ada', `198.51.100.${a}`, now);
    }
    expect(throttle.reserveUser('ada', '192.0.2.1', now)).toBeGreaterThan(0);
  });

  it('forgets tries after the window', () => {
    const throttle = new LoginThrottle();
    const now = 1_000_000;
    for (let i = 0; i < 10; i++) throttle.reserveUser('ada', '192.0.2.1', now);
    expect(throttle.reserveUser('ada', '192.0.2.1', now + 30_000)).toBe(30);
    expect(
      isAttempt(throttle.reserveUser('ada', '192.0.2.1', now + 60_001)),
    ).toBe(true);
  });
});

describe('LoginThrottle: client secrets', () => {
  it('answers 0 for the first 100 wrong secrets from an address a minute, then the wait', () => {
    const throttle = new LoginThrottle();
    const now = 1_000_000;
    for (let i = 0; i < 100; i++)
      expect(throttle.secretFailed('192.0.2.1', now)).toBe(0);
    expect(throttle.secretFailed('192.0.2.1', now)).toBe(60);
    expect(throttle.secretFailed('192.0.2.2', now)).toBe(0);
    expect(throttle.secretFailed('192.0.2.1', now + 60_001)).toBe(0);
  });

  it('does not count wrong secrets against passwords from the same address', () => {
    const throttle = new LoginThrottle();
    const now = 1_000_000;
    for (let i = 0; i < 150; i++) throttle.secretFailed('192.0.2.1', now);
    expect(isAttempt(throttle.reserveUser('ada', '192.0.2.1', now))).toBe(true);
  });
});
