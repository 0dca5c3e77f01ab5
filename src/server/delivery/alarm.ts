/**
 * Wakes this node's queue workers when their queue has work, so that an idle node sleeps instead
 * of polling: the workers themselves only poll every WORKER_POLL_SECONDS (a last resort).
 *
 * - Jobs written by SQL (enqueue_delivery_jobs, enqueue_status_callbacks: a send or a state
 *   change on any node) NOTIFY JOBS_CHANNEL with their queue's name at their commit
 *   (migrations/024): the named queue's workers are woken at once.
 * - Jobs that start later (a scheduled send, a paced release, a retry's backoff, a deferral, a
 *   status callback's next try) are found by looking at the queues: the earliest start of a job
 *   not yet taken, per queue (two index lookups). The alarm wakes the queue's workers when that
 *   time comes. It looks after every notification, when this node queues something for later
 *   (`expect`), when LISTEN is (back) in place, and otherwise every `idleCheckMs`.
 *
 * Correctness never depends on a notification: a missed one (connection down, another node
 * killed between its commit and our LISTEN) costs at most `idleCheckMs` of latency.
 */
import type { Db } from '../db/client.ts';
import { listen, type Listener } from '../db/listen.ts';
import type { DeliveryLogger } from './types.ts';

/** Notified by the job-writing SQL (migrations/024) with the queue's name. */
export const JOBS_CHANNEL = 'queue_jobs';
/** How often an idle node looks at its queues when nothing is known to be due (ms). */
export const IDLE_CHECK_MS = 5_000;
/**
 * The workers' own polling (seconds): only a backstop, should the alarm itself fail; every
 * wake-up that matters comes from the alarm or from this node's sends.
 */
export const WORKER_POLL_SECONDS = 60;
/** While a queue has jobs that could run now (its workers are busy): look again after this. */
const BUSY_CHECK_MS = 1_000;
/** A notification's look waits this long, so a burst of them is one look. */
const NOTIFIED_CHECK_MS = 100;

export interface QueueAlarmOptions {
  db: Db;
  /** PostgreSQL: LISTEN over a connection of its own. Unset: the embedded PGlite's listen. */
  databaseUrl: string | undefined;
  queues: readonly string[];
  /** Wakes the workers of `queue`. */
  wake(queue: string): void;
  idleCheckMs?: number;
  logger: DeliveryLogger;
}

export interface QueueAlarm {
  /** This node queued a job that starts in `ms` (or later): look again then. */
  expect(ms: number): void;
  /** Resolves once LISTEN is in place (tests). */
  readonly listening: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Milliseconds until each queue's earliest job not yet taken may start (negative: it may start
 * now); queues with none are left out. `state = ANY` would scan every waiting job's index
 * entry; one min per state reads one entry each (pg-boss's job_i14: name, state, blocked,
 * start_after).
 */
const NEXT_START_SQL = `
  SELECT q.name,
         extract(epoch FROM LEAST(
           (SELECT min(j.start_after) FROM pgboss.job j
             WHERE j.name = q.name AND j.state = 'created' AND NOT j.blocked),
           (SELECT min(j.start_after) FROM pgboss.job j
             WHERE j.name = q.name AND j.state = 'retry' AND NOT j.blocked)
         ) - clock_timestamp()) * 1000 AS in_ms
  FROM unnest($1::text[]) AS q(name)`;

export function startQueueAlarm(options: QueueAlarmOptions): QueueAlarm {
  const { db, queues, logger } = options;
  const idleCheckMs = options.idleCheckMs ?? IDLE_CHECK_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let looking: Promise<void> | null = null;
  let lookAgain = false;

  /** Looks in `ms`, unless a look is already due sooner. */
  function lookIn(ms: number): void {
    const at = Date.now() + Math.max(0, ms);
    if (stopped || at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Infinity;
        look();
      },
      Math.max(0, ms),
    );
  }

  /** One look at a time; a look asked for meanwhile runs after it. */
  function look(): void {
    if (stopped) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = lookNow().finally(() => {
      looking = null;
      if (lookAgain) {
        lookAgain = false;
        look();
      }
    });
  }

  async function lookNow(): Promise<void> {
    let next = idleCheckMs;
    try {
      type Row = { name: string; in_ms: number | null };
      // On PostgreSQL over the LISTEN connection: the pool's stay closed on an idle node.
      const rows = await (listener?.query<Row>(NEXT_START_SQL, [queues]) ??
        db.query<Row>(NEXT_START_SQL, [queues]));
      for (const row of rows) {
        if (row.in_ms === null) continue;
        const inMs = Number(row.in_ms);
        if (inMs <= 0) {
          options.wake(row.name);
          next = Math.min(next, BUSY_CHECK_MS);
        } else {
          // A little after the start: pg-boss takes jobs whose start_after is past.
          next = Math.min(next, Math.ceil(inMs) + 10);
        }
      }
    } catch (err) {
      if (stopped) return;
      logger.warn({ err }, 'looking for due queue jobs failed');
    }
    lookIn(next);
  }

  const onNotify = (queue: string) => {
    if (queues.includes(queue)) options.wake(queue);
    // The job may start later: the look finds when.
    lookIn(NOTIFIED_CHECK_MS);
  };

  let close: () => Promise<void>;
  let listening: Promise<void>;
  let listener: Listener | undefined;
  if (options.databaseUrl) {
    const subscribed = listen(options.databaseUrl, JOBS_CHANNEL, {
      onNotify,
      // Whatever was notified while it was down was missed: look now.
      onListening: look,
      onDown: () => undefined,
      onError: (err) =>
        logger.warn({ err }, 'queue notifications: connection failed'),
    });
    listener = subscribed;
    close = () => subscribed.close();
    listening = subscribed.listening;
  } else {
    if (!db.pglite)
      throw new Error('embedded database without its PGlite handle');
    const subscribed = db.pglite.listen(JOBS_CHANNEL, onNotify);
    listening = subscribed.then(
      () => look(),
      (err: unknown) =>
        logger.warn({ err }, 'queue notifications: LISTEN failed'),
    );
    close = async () => {
      const unsubscribe = await subscribed.catch(() => undefined);
      await unsubscribe?.().catch(() => undefined);
    };
  }
  look();

  return {
    expect: (ms) => lookIn(ms),
    listening,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await looking;
      await close();
    },
  };
}
