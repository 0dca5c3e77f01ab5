import { describe, expect, it } from 'vitest';
import { LoginThrottle, type Attempt } from './login-throttle.ts';

const isAttempt = (a: Attempt | number): a is Attempt => typeof a !== 'number';
const now = 1_000_000;

/** `n` wrong passwords for `account`, one from each of `n` new addresses. */
function spread(throttle: LoginThrottle, account: string, n: number): void {
  for (let a = 0; a < n; a++)
    throttle.reserveUser(account, `192.0.2.${a + 100}`, false, now);
}

describe('LoginThrottle: passwords', () => {
  it('counts a reserved try before its check ends: the 11th at once is refused', () => {
    const throttle = new LoginThrottle();
    const tries = Array.from({ length: 11 }, () =>
      throttle.reserveUser('ada@example.test', '192.0.2.1', false, now),
    );
    expect(tries.slice(0, 10).every(isAttempt)).toBe(true);
    expect(tries[10]).toBe(60);
  });

  it('gives a try back when it was right', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 30; i++) {
      const attempt = throttle.reserveUser('ada', '192.0.2.1', false, now);
      if (!isAttempt(attempt)) throw new Error('refused');
      attempt.succeeded();
    }
  });

  it('gives a cancelled try back', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 30; i++) {
      const attempt = throttle.reserveUser('ada', '192.0.2.1', false, now);
      if (!isAttempt(attempt)) throw new Error('refused');
      attempt.cancel();
    }
  });

  it('limits an account to 10 a minute per address, even a known one', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 10; i++)
      throttle.reserveUser('ada', '192.0.2.1', true, now);
    expect(throttle.reserveUser('ada', '192.0.2.1', true, now)).toBe(60);
    expect(throttle.refusedOnlyForUnknownAddress('ada', '192.0.2.1', now)).toBe(
      false,
    );
    expect(
      isAttempt(throttle.reserveUser('ada', '192.0.2.2', false, now)),
    ).toBe(true);
  });

  it('limits an account to 20 a minute over all addresses, except at a known address', () => {
    const throttle = new LoginThrottle();
    spread(throttle, 'ada', 20);
    expect(throttle.reserveUser('ada', '198.51.100.1', false, now)).toBe(60);
    expect(
      throttle.refusedOnlyForUnknownAddress('ada', '198.51.100.1', now),
    ).toBe(true);
    expect(
      isAttempt(throttle.reserveUser('ada', '198.51.100.7', true, now)),
    ).toBe(true);
    // Another account is not concerned.
    expect(
      isAttempt(throttle.reserveUser('bob', '198.51.100.1', false, now)),
    ).toBe(true);
  });

  it('limits an address to 100 failed passwords a minute over all accounts, except for an account known there', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 100; i++)
      throttle.reserveUser(`user-${i}`, '192.0.2.1', false, now);
    expect(throttle.reserveUser('ada', '192.0.2.1', false, now)).toBe(60);
    expect(throttle.refusedOnlyForUnknownAddress('ada', '192.0.2.1', now)).toBe(
      true,
    );
    expect(isAttempt(throttle.reserveUser('ada', '192.0.2.1', true, now))).toBe(
      true,
    );
    expect(
      isAttempt(throttle.reserveUser('ada', '192.0.2.2', false, now)),
    ).toBe(true);
  });

  it('forgets tries after the window', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 10; i++)
      throttle.reserveUser('ada', '192.0.2.1', false, now);
    expect(throttle.reserveUser('ada', '192.0.2.1', false, now + 30_000)).toBe(
      30,
    );
    expect(
      isAttempt(throttle.reserveUser('ada', '192.0.2.1', false, now + 60_001)),
    ).toBe(true);
  });
});

describe('LoginThrottle: client secrets', () => {
  it('answers 0 for the first 100 wrong secrets from an address a minute, then the wait', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 100; i++)
      expect(throttle.secretFailed('192.0.2.1', now)).toBe(0);
    expect(throttle.secretFailed('192.0.2.1', now)).toBe(60);
    expect(throttle.secretFailed('192.0.2.2', now)).toBe(0);
    expect(throttle.secretFailed('192.0.2.1', now + 60_001)).toBe(0);
  });

  it('does not count wrong secrets against passwords from the same address', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 150; i++) throttle.secretFailed('192.0.2.1', now);
    expect(
      isAttempt(throttle.reserveUser('ada', '192.0.2.1', false, now)),
    ).toBe(true);
  });
});
