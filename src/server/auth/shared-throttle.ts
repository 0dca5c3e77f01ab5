import { hash } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import {
  DEFAULT_LIMITS,
  pairKey,
  secretKey,
  userKeys,
  type Attempt,
  type SignInThrottle,
  type ThrottleLimits,
} from './login-throttle.ts';

/** Ended windows are deleted by a node at most this often. */
const PRUNE_EVERY_MS = 60_000;

interface Counted {
  count: number;
  windowStartMs: string;
  waitSeconds: number;
}

/** The database's clock in milliseconds: every node counts windows on the same clock. */
const NOW_MS = `(extract(epoch FROM now()) * 1000)::bigint`;

/**
 * The sign-in throttle of a fleet: the same counters and limits as LoginThrottle (see there),
 * kept in PostgreSQL (table sign_in_attempts, migrations/012-fleet-sign-in.sql) so a try counts
 * on every node, and an attacker spreading tries over N nodes gets one allowance, not N.
 *
 * Each counter is a row: a window opened by the first try counted, lasting `windowMs`, and the
 * tries counted in it (a fixed window from the first try rather than LoginThrottle's sliding
 * one: one row per counter). A password try is reserved in one round trip by
 * take_sign_in_attempt, which counts it on its three counters only when every enforced one is
 * under its limit (a refused try is not counted, as in LoginThrottle); a right password gives
 * its try back. Only checks that miss the credential cache come here: a sign-in served from
 * the cache costs no round trip.
 *
 * Rows are keyed by a SHA-256 of the counter's name (account names and addresses are whatever
 * a caller sends). Ended windows are deleted by each node, at most once a minute.
 */
export class SharedLoginThrottle implements SignInThrottle {
  private readonly db: Queryable;
  private readonly limits: ThrottleLimits;
  private readonly onError: (error: unknown) => void;
  private lastPrune = -Infinity;
  /** `account \0 address` → whether its last refusal left the pair's own cap free. */
  private readonly refusals = new Map<string, boolean>();

  constructor(
    db: Queryable,
    onError: (error: unknown) => void,
    limits: Partial<ThrottleLimits> = {},
  ) {
    this.db = db;
    this.onError = onError;
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  async reserveUser(
    account: string,
    address: string,
    knownAddress = false,
  ): Promise<Attempt | number> {
    const pair = rowKey(pairKey(account, address));
    const keys = userKeys(this.limits, account, address, !knownAddress).map(
      (k) => ({ ...k, key: rowKey(k.key) }),
    );
    this.prune();
    const [taken] = await this.db.query<{
      wait_ms: string;
      refused_by: string[];
      window_starts: string[] | null;
    }>('SELECT * FROM take_sign_in_attempt($1, $2, $3, $4)', [
      keys.map((k) => k.key),
      keys.map((k) => k.limit),
      keys.map((k) => k.enforce),
      this.limits.windowMs,
    ]);
    const waitMs = Number(taken?.wait_ms ?? 0);
    if (waitMs > 0) {
      remember(
        this.refusals,
        `${account}\0${address}`,
        !(taken?.refused_by ?? []).includes(pair),
      );
      return Math.max(1, Math.ceil(waitMs / 1000));
    }
    const starts = taken?.window_starts ?? [];
    const counted = new Map(
      keys.map((k, i) => [
        k.key,
        { count: 0, windowStartMs: starts[i] ?? '0', waitSeconds: 0 },
      ]),
    );
    let given = false;
    const giveBack = () => {
      if (given) return;
      given = true;
      this.giveBack(counted).catch(this.onError);
    };
    return { succeeded: giveBack, cancel: giveBack };
  }

  /**
   * Answered from the refusal `reserveUser` just made (no round trip), or from the table when
   * there is none.
   */
  async refusedOnlyForUnknownAddress(
    account: string,
    address: string,
  ): Promise<boolean> {
    const name = `${account}\0${address}`;
    const remembered = this.refusals.get(name);
    if (remembered !== undefined) {
      this.refusals.delete(name);
      return remembered;
    }
    const [row] = await this.db.query<{ count: number }>(
      `SELECT count FROM sign_in_attempts
       WHERE key = $1 AND window_start_ms > ${NOW_MS} - $2::bigint`,
      [rowKey(pairKey(account, address)), this.limits.windowMs],
    );
    return (row?.count ?? 0) < this.limits.perAccountAddress;
  }

  async secretFailed(address: string): Promise<number> {
    const key = rowKey(secretKey(address));
    const counted = (await this.count([key])).get(key);
    if (!counted || counted.count <= this.limits.secretsPerAddress) return 0;
    return counted.waitSeconds;
  }

  /**
   * Counts one try on each key (a new window for a key whose window ended) and answers each
   * key's count, window and the seconds until it ends. Keys are sorted, so two statements
   * sharing keys lock their rows in one order and never deadlock.
   */
  private async count(keys: string[]): Promise<Map<string, Counted>> {
    this.prune();
    const rows = await this.db.query<{
      key: string;
      count: number;
      window_start_ms: string;
      wait_ms: string;
    }>(
      `INSERT INTO sign_in_attempts AS a (key, window_start_ms, count)
       SELECT k, ${NOW_MS}, 1 FROM unnest($1::text[]) AS k
       ON CONFLICT (key) DO UPDATE SET
         window_start_ms = CASE WHEN a.window_start_ms <= excluded.window_start_ms - $2::bigint
                                THEN excluded.window_start_ms ELSE a.window_start_ms END,
         count = CASE WHEN a.window_start_ms <= excluded.window_start_ms - $2::bigint
                      THEN 1 ELSE a.count + 1 END
       RETURNING key, count, window_start_ms::text,
                 (window_start_ms + $2::bigint - ${NOW_MS})::text AS wait_ms`,
      [[...keys].sort(), this.limits.windowMs],
    );
    return new Map(
      rows.map((r) => [
        r.key,
        {
          count: r.count,
          windowStartMs: r.window_start_ms,
          waitSeconds: Math.max(1, Math.ceil(Number(r.wait_ms) / 1000)),
        },
      ]),
    );
  }

  /** Takes back the tries `count` counted, in the windows it counted them in. */
  private async giveBack(counted: Map<string, Counted>): Promise<void> {
    const keys = [...counted.keys()].sort();
    // Rows locked in key order (LockRows runs above the sort), as `count` locks them.
    await this.db.query(
      `WITH locked AS (
         SELECT a.key FROM sign_in_attempts a
         JOIN unnest($1::text[], $2::bigint[]) AS g(key, window_start_ms)
           ON a.key = g.key AND a.window_start_ms = g.window_start_ms
         ORDER BY a.key FOR UPDATE OF a)
       UPDATE sign_in_attempts a SET count = a.count - 1
       FROM locked WHERE a.key = locked.key AND a.count > 0`,
      [keys, keys.map((k) => counted.get(k)?.windowStartMs)],
    );
  }

  /** Deletes the rows of ended windows, off the request's path, at most once a minute. */
  private prune(now = Date.now()): void {
    if (this.lastPrune > now - PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    this.db
      .query(
        `DELETE FROM sign_in_attempts WHERE window_start_ms <= ${NOW_MS} - $1::bigint`,
        [this.limits.windowMs],
      )
      .catch((error: unknown) => {
        this.lastPrune = -Infinity;
        this.onError(error);
      });
  }
}

/** Sets `key` as the newest entry, dropping the oldest beyond 10,000. */
function remember(map: Map<string, boolean>, key: string, value: boolean) {
  map.delete(key);
  map.set(key, value);
  if (map.size > 10_000) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

/** The row of a counter: a hash, so a row's size does not depend on what a caller sent. */
function rowKey(counter: string): string {
  return hash('sha256', counter, 'base64url');
}
