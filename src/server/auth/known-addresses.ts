import type { Queryable } from '../db/client.ts';

/** An address where a user signed in stays known this long after the last sign-in there. */
export const KNOWN_ADDRESS_DAYS = 30;
/** A pair's `last_success` moves at most this often (per node, and in the database). */
const WRITE_EVERY_MS = 60 * 60_000;
/** How long this node trusts what it read: a known pair, an unknown one. */
const KNOWN_CACHE_MS = 10 * 60_000;
const UNKNOWN_CACHE_MS = 60_000;
const MAX_CACHED = 100_000;

/**
 * Addresses where each user signed in successfully in the last 30 days: there the account-wide
 * and address-wide password caps do not apply, so an attack on an account from elsewhere does
 * not lock its owner out of their usual places.
 *
 * Kept in the database (table known_sign_in_addresses), so they survive a restart and every
 * node knows them; but neither path waits much for it. A sign-in records its pair off the
 * request's path, at most once an hour per pair; the table is read only when a cap refuses a
 * try, and the answer is cached for a while (a known pair 10 minutes, an unknown one 1 minute).
 * Entries older than 30 days are deleted by the node that writes, at most once an hour.
 */
export class KnownAddresses {
  private readonly db: Queryable;
  private readonly onError: (error: unknown) => void;
  /** `account \0 address` → what the table said (or this node's own sign-in), until when. */
  private readonly cache = new Map<string, { known: boolean; until: number }>();
  /** `user id \0 address` → when this node last wrote the pair. */
  private readonly written = new Map<string, number>();
  private lastHousekeeping = -Infinity;
  private readonly writing = new Set<Promise<void>>();

  constructor(db: Queryable, onError: (error: unknown) => void) {
    this.db = db;
    this.onError = onError;
  }

  /** Whether the owner of `account` (a lower-cased e-mail) signed in at `address` lately. */
  async isKnown(
    account: string,
    address: string,
    now = Date.now(),
  ): Promise<boolean> {
    const key = `${account}\0${address}`;
    const cached = this.cache.get(key);
    if (cached && cached.until > now) return cached.known;
    const [row] = await this.db.query<{ ms_left: number | string }>(
      `SELECT extract(epoch FROM k.last_success + make_interval(days => $3) - now()) * 1000
         AS ms_left
       FROM known_sign_in_addresses k JOIN users u ON u.id = k.user_id
       WHERE lower(u.email) = lower($1) AND k.address = $2
         AND k.last_success > now() - make_interval(days => $3)`,
      [account, address, KNOWN_ADDRESS_DAYS],
    );
    const known = row !== undefined;
    const until =
      now +
      (known
        ? Math.min(KNOWN_CACHE_MS, Number(row.ms_left))
        : UNKNOWN_CACHE_MS);
    remember(this.cache, key, { known, until });
    return known;
  }

  /**
   * The user signed in at `address` with their password: known here at once, and written to
   * the database off the request's path (at most once an hour per pair). Answers the write
   * when one was started (tests await it); callers on the request path do not.
   */
  signedIn(
    user: { id: string; account: string },
    address: string,
    now = Date.now(),
  ): Promise<void> | undefined {
    remember(this.cache, `${user.account}\0${address}`, {
      known: true,
      until: now + KNOWN_CACHE_MS,
    });
    const pair = `${user.id}\0${address}`;
    const last = this.written.get(pair);
    if (last !== undefined && last > now - WRITE_EVERY_MS) return undefined;
    // Taken at once, so the sign-ins arriving while the write runs do not start their own.
    remember(this.written, pair, now);
    const housekeeping = this.lastHousekeeping <= now - WRITE_EVERY_MS;
    if (housekeeping) this.lastHousekeeping = now;
    const write = this.write(user.id, address, housekeeping).catch(
      (error: unknown) => {
        // Tried again at the next sign-in rather than an hour later.
        if (this.written.get(pair) === now) this.written.delete(pair);
        if (housekeeping) this.lastHousekeeping = -Infinity;
        this.onError(error);
      },
    );
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
    return write;
  }

  /** Waits for the writes started so far (before the database closes). */
  async drain(): Promise<void> {
    await Promise.all([...this.writing]);
  }

  private async write(
    userId: string,
    address: string,
    housekeeping: boolean,
  ): Promise<void> {
    // Conditional, so several nodes together still move a pair once an hour.
    await this.db.query(
      `INSERT INTO known_sign_in_addresses (user_id, address, last_success)
       VALUES ($1, $2, now())
       ON CONFLICT (user_id, address) DO UPDATE SET last_success = excluded.last_success
       WHERE known_sign_in_addresses.last_success < excluded.last_success - interval '1 hour'`,
      [userId, address],
    );
    if (housekeeping) {
      await this.db.query(
        `DELETE FROM known_sign_in_addresses
         WHERE last_success < now() - make_interval(days => $1)`,
        [KNOWN_ADDRESS_DAYS],
      );
    }
  }
}

/** Sets `key` as the newest entry of `map`, dropping the oldest beyond MAX_CACHED. */
function remember<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_CACHED) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}
