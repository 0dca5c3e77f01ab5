/**
 * Counts failed logins in a sliding window. An account is locked after `perAccount` failures a
 * minute; an address after `perAddress` failures across accounts (a higher bar, so one
 * account's lock-out does not lock out other accounts behind the same address).
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly windowMs: number;
  private readonly perAccount: number;
  private readonly perAddress: number;

  constructor(windowMs = 60_000, perAccount = 10, perAddress = 100) {
    this.windowMs = windowMs;
    this.perAccount = perAccount;
    this.perAddress = perAddress;
  }

  /** Seconds to wait before trying again, or 0 when attempts are allowed. */
  retryAfter(account: string, address: string, now = Date.now()): number {
    return Math.max(
      this.wait(`a:${account}`, this.perAccount, now),
      this.wait(`i:${address}`, this.perAddress, now),
    );
  }

  recordFailure(account: string, address: string, now = Date.now()): void {
    for (const key of [`a:${account}`, `i:${address}`]) {
      const times = this.recent(key, now);
      times.push(now);
      this.failures.set(key, times);
    }
    if (this.failures.size > 50_000) this.prune(now);
  }

  private wait(key: string, limit: number, now: number): number {
    const times = this.recent(key, now);
    if (times.length < limit) return 0;
    const oldestCounted = times[times.length - limit] ?? now;
    return Math.max(1, Math.ceil((oldestCounted + this.windowMs - now) / 1000));
  }

  private recent(key: string, now: number): number[] {
    const times = (this.failures.get(key) ?? []).filter(
      (t) => t > now - this.windowMs,
    );
    if (times.length === 0) this.failures.delete(key);
    return times;
  }

  private prune(now: number): void {
    for (const key of [...this.failures.keys()]) this.recent(key, now);
  }
}
