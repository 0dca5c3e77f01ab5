/** Attempts counted in a sliding window, per key. */
export class SlidingWindow {
  private readonly times = new Map<string, number[]>();
  readonly windowMs: number;

  constructor(windowMs = 60_000) {
    this.windowMs = windowMs;
  }

  /** Seconds until `key` is under `limit` again, or 0 when it is under it now. */
  wait(key: string, limit: number, now = Date.now()): number {
    const times = this.recent(key, now);
    if (times.length < limit) return 0;
    const oldestCounted = times[times.length - limit] ?? now;
    return Math.max(1, Math.ceil((oldestCounted + this.windowMs - now) / 1000));
  }

  add(key: string, now = Date.now()): void {
    const times = this.recent(key, now);
    times.push(now);
    this.times.set(key, times);
    if (this.times.size > 50_000) this.prune(now);
  }

  /** Takes back one attempt counted at `at` (an attempt that turned out right). */
  remove(key: string, at: number): void {
    const times = this.times.get(key);
    const index = times?.lastIndexOf(at) ?? -1;
    if (times && index >= 0) times.splice(index, 1);
  }

  /** Counts an attempt when every key is under its limit; answers the wait otherwise. */
  take(
    keys: readonly { key: string; limit: number; enforce?: boolean }[],
    now = Date.now(),
  ): number {
    const wait = Math.max(
      0,
      ...keys
        .filter((k) => k.enforce !== false)
        .map((k) => this.wait(k.key, k.limit, now)),
    );
    if (wait > 0) return wait;
    for (const { key } of keys) this.add(key, now);
    return 0;
  }

  private recent(key: string, now: number): number[] {
    const times = (this.times.get(key) ?? []).filter(
      (t) => t > now - this.windowMs,
    );
    if (times.length === 0) this.times.delete(key);
    return times;
  }

  private prune(now: number): void {
    for (const key of [...this.times.keys()]) this.recent(key, now);
  }
}

export interface ThrottleLimits {
  windowMs: number;
  /** Tries at one user account from one address. */
  perAccountAddress: number;
  /** Tries at one user account from every address together. */
  perAccount: number;
  /** Failed passwords from one address, at every user account together. */
  perAddress: number;
  /** Wrong API-client secrets from one address, at every client together. */
  secretsPerAddress: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  windowMs: 60_000,
  perAccountAddress: 10,
  perAccount: 20,
  perAddress: 100,
  secretsPerAddress: 100,
};

/** A reserved attempt: counted as a failure unless given back. */
export interface Attempt {
  /** The credential was right: the try is given back. */
  succeeded(): void;
  /** Nothing was checked (the database failed): the try is given back. */
  cancel(): void;
}

/**
 * What authentication asks of a sign-in throttle: LoginThrottle (in memory, for the embedded
 * database) or SharedLoginThrottle (in PostgreSQL, for every node of a fleet).
 */
export interface SignInThrottle {
  reserveUser(
    account: string,
    address: string,
    knownAddress?: boolean,
  ): Attempt | number | Promise<Attempt | number>;
  refusedOnlyForUnknownAddress(
    account: string,
    address: string,
  ): boolean | Promise<boolean>;
  secretFailed(address: string): number | Promise<number>;
}

/**
 * Limits password guessing, and bounds wrong API-client secrets. Counters are in this process:
 * what the embedded database needs, as one process alone opens it (its DATA_DIR is locked), so
 * this node's counts are every node's; in memory the window slides exactly and a failed try
 * costs no write. On PostgreSQL, SharedLoginThrottle counts the same keys for every node.
 *
 * Passwords: a try is reserved before the check runs and given back only when the password
 * was right, so checks in flight count: however many requests arrive at once, no more than
 * the allowance are checked.
 * - One account from one address: 10 tries a minute, so one address cannot guess faster and
 *   cannot lock the owner out anywhere else.
 * - One account from all addresses: 20 a minute, which bounds a distributed guess.
 * - One address, all accounts: 100 failures a minute, against spraying one password over
 *   many accounts.
 * The last two do not apply at an address where the account's owner signed in during the last
 * 30 days (`knownAddress`, which the caller looks up only when they refuse a try: see
 * `refusedOnlyForUnknownAddress`), so the owner keeps working from their usual places.
 *
 * API-client secrets are 256 random bits: they cannot be guessed, and checking one is cheap,
 * so a secret is always checked and a right one always accepted. Wrong ones count on their own
 * per-address counter (`secretFailed`), which refuses only further wrong secrets and never a
 * user's password.
 */
export class LoginThrottle implements SignInThrottle {
  private readonly window: SlidingWindow;
  private readonly limits: ThrottleLimits;

  constructor(limits: Partial<ThrottleLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.window = new SlidingWindow(this.limits.windowMs);
  }

  /**
   * Reserves a try at a user account's password: an Attempt, or the seconds to wait.
   * `knownAddress`: the owner signed in at this address in the last 30 days.
   */
  reserveUser(
    account: string,
    address: string,
    knownAddress = false,
    now = Date.now(),
  ): Attempt | number {
    const keys = userKeys(this.limits, account, address, !knownAddress);
    const wait = this.window.take(keys, now);
    if (wait > 0) return wait;
    const giveBack = () => {
      for (const { key } of keys) this.window.remove(key, now);
    };
    return { succeeded: giveBack, cancel: giveBack };
  }

  /**
   * True when a try just refused would pass at a known address: only the caps that a known
   * address lifts are reached, so asking whether this address is known is worth a look-up.
   */
  refusedOnlyForUnknownAddress(
    account: string,
    address: string,
    now = Date.now(),
  ): boolean {
    const pair = pairKey(account, address);
    return this.window.wait(pair, this.limits.perAccountAddress, now) === 0;
  }

  /**
   * Counts a wrong API-client secret from `address`: 0 while the address is under its limit
   * (answer 401), else the seconds to wait (answer 429; the try is not counted again).
   */
  secretFailed(address: string, now = Date.now()): number {
    return this.window.take(
      [{ key: secretKey(address), limit: this.limits.secretsPerAddress }],
      now,
    );
  }
}

/** The counters a password try at `account` from `address` counts on, with their limits. */
export function userKeys(
  limits: ThrottleLimits,
  account: string,
  address: string,
  enforceWide: boolean,
): { key: string; limit: number; enforce: boolean }[] {
  return [
    {
      key: pairKey(account, address),
      limit: limits.perAccountAddress,
      enforce: true,
    },
    { key: `a:${account}`, limit: limits.perAccount, enforce: enforceWide },
    { key: `i:${address}`, limit: limits.perAddress, enforce: enforceWide },
  ];
}

/** The counter of wrong API-client secrets from one address. */
export function secretKey(address: string): string {
  return `s:${address}`;
}

/** The counter of one account at one address. */
export function pairKey(account: string, address: string): string {
  return `p:${account}\0${address}`;
}
