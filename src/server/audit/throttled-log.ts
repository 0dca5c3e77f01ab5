import type { Queryable } from '../db/client.ts';
import { recordThrottled, updateThrottledCounts } from './record.ts';

/** A lock of an address ends once no try from it was refused for this long. */
const QUIET_MS = 60_000;
/** How often counts of refused tries are written (one statement for every open lock). */
const FLUSH_MS = 2_000;
const MAX_OPEN = 100_000;

interface Lock {
  /** The event's id, once its insert has returned. */
  id?: string;
  /** The user name of the first refused try: the one the event names. */
  account: string;
  refused: number;
  refusedForOthers: number;
  /** Whether `refused` moved since it was last written. */
  dirty: boolean;
  quietUntil: number;
}

/**
 * The audit log's view of refused sign-ins: one `auth.throttled` event per address and lock,
 * whatever the user names tried, so refused tries cannot flood the log. The first refusal
 * from an address inserts the event; later ones only count in memory, and every two seconds
 * one statement writes the counts that moved (and the last ones on close). A lock lasts while
 * tries from the address keep being refused: it ends after a minute without a refusal there,
 * and the next refusal opens a new event.
 */
export class ThrottledLog {
  private readonly db: Queryable;
  private readonly onError: (error: unknown) => void;
  private readonly flushMs: number;
  private readonly open = new Map<string, Lock>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly writing = new Set<Promise<void>>();

  constructor(
    db: Queryable,
    onError: (error: unknown) => void,
    flushMs = FLUSH_MS,
  ) {
    this.db = db;
    this.onError = onError;
    this.flushMs = flushMs;
  }

  /** A try naming `account` from `ip` was refused with 429 (never waits for the database). */
  refused(
    attempt: { account: string; ip: string; retryAfterSeconds: number },
    now = Date.now(),
  ): void {
    const quietUntil =
      now + Math.max(QUIET_MS, attempt.retryAfterSeconds * 1000);
    const lock = this.open.get(attempt.ip);
    if (lock && lock.quietUntil > now) {
      lock.refused += 1;
      if (attempt.account !== lock.account) lock.refusedForOthers += 1;
      lock.quietUntil = quietUntil;
      lock.dirty = true;
      this.schedule();
      return;
    }
    const opened: Lock = {
      account: attempt.account,
      refused: 1,
      refusedForOthers: 0,
      dirty: false,
      quietUntil,
    };
    this.open.delete(attempt.ip);
    this.open.set(attempt.ip, opened);
    if (this.open.size > MAX_OPEN) {
      const oldest = this.open.keys().next().value;
      if (oldest !== undefined) this.open.delete(oldest);
    }
    this.track(
      recordThrottled(this.db, attempt).then(
        (id) => {
          opened.id = id;
          if (opened.dirty) this.schedule();
        },
        (error: unknown) => {
          // Not recorded: the next refusal from the address tries again.
          if (this.open.get(attempt.ip) === opened)
            this.open.delete(attempt.ip);
          throw error;
        },
      ),
    );
  }

  /** Writes every count that moved; forgets locks that ended and are written. */
  async flush(now = Date.now()): Promise<void> {
    const due: Lock[] = [];
    for (const [ip, lock] of this.open) {
      if (lock.dirty && lock.id !== undefined) due.push(lock);
      else if (!lock.dirty && lock.quietUntil <= now) this.open.delete(ip);
    }
    for (const lock of due) lock.dirty = false;
    const counts = due.map((lock) => ({
      id: lock.id ?? '',
      refused: lock.refused,
      refusedForOthers: lock.refusedForOthers,
    }));
    try {
      await updateThrottledCounts(this.db, counts);
    } catch (error) {
      for (const lock of due) lock.dirty = true;
      this.schedule();
      throw error;
    }
  }

  /** Writes the last counts (before the database closes) and stops the timer. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.all([...this.writing]);
    await this.flush().catch(this.onError);
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.track(this.flush());
    }, this.flushMs);
    this.timer.unref();
  }

  private track(write: Promise<void>): void {
    const tracked = write.catch(this.onError);
    this.writing.add(tracked);
    void tracked.finally(() => this.writing.delete(tracked));
  }
}
