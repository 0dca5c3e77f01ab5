/**
 * This node's delivery workers: they fetch batches of jobs from the durable queue, load their
 * messages in one statement, and run each job's attempt (attempt.ts).
 */
import type { JobWithMetadata, PgBoss } from 'pg-boss';
import type { Db } from '../db/client.ts';
import { WORKER_POLL_SECONDS } from './alarm.ts';
import { attemptDelivery, type AttemptContext } from './attempt.ts';
import { DELIVERY_QUEUE } from './queue.ts';
import * as repo from './repo.ts';
import type { DeliveryLogger } from './types.ts';

/** Jobs fetched at once by a worker. */
export const DELIVERY_BATCH_SIZE = 100;

/**
 * Jobs a worker fetches at once: DELIVERY_BATCH_SIZE, or, with the SMPP bind capped at `maxTps`
 * submits a second, about a second's worth of them (at least 10). A worker comes back for more
 * jobs only once its whole batch is through, and until then another client's new job waits in
 * the queue however it is ranked (fair delivery): 100 at 50 a second kept it up to 2 s.
 */
export function deliveryBatchSize(maxTps: number | null | undefined): number {
  if (!maxTps) return DELIVERY_BATCH_SIZE;
  return Math.min(DELIVERY_BATCH_SIZE, Math.max(10, Math.round(maxTps)));
}

type DeliveryJob = JobWithMetadata<{ messageId: string }>;

/**
 * The highest lane round among fetched jobs (a ranked job's priority is minus its round,
 * migrations/031-fair-delivery.sql), or null when none is ranked (a scheduled message's release
 * job, priority 1; a job queued before 031, priority 0).
 */
export function highestRound(
  jobs: readonly { priority: number }[],
): number | null {
  let round: number | null = null;
  for (const { priority } of jobs) {
    if (priority < 0 && (round === null || -priority > round))
      round = -priority;
  }
  return round;
}

/** How often at most a node writes the round its workers reached (servedRounds). */
export const SERVED_ROUND_WRITE_MS = 100;

/**
 * The round this node's workers reached, written to the database (advance_delivery_round) at
 * most every SERVED_ROUND_WRITE_MS, the highest one noted since, rather than one more commit
 * (a WAL flush) for every fetch of a busy node. The clock only places the next newcomer; lagging
 * a few rounds behind places it a few rounds earlier, which still leaves every lane its turn.
 */
export function servedRounds(
  db: Db,
  logger: DeliveryLogger,
  everyMs = SERVED_ROUND_WRITE_MS,
): (round: number) => void {
  let highest = 0;
  let written = 0;
  let lastWrite = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  const write = async () => {
    timer = null;
    const round = highest;
    if (round <= written) return;
    lastWrite = performance.now();
    try {
      await repo.advanceDeliveryRound(db, round);
      written = Math.max(written, round);
    } catch (err) {
      // A hint, not a record: the next fetch writes it again.
      logger.warn({ err }, 'delivery round not written');
    }
  };
  return (round) => {
    if (round <= highest) return;
    highest = round;
    if (timer) return;
    const wait = Math.max(0, lastWrite + everyMs - performance.now());
    timer = setTimeout(() => void write(), wait);
    timer.unref();
  };
}

/**
 * One fetched batch: each job's result, a job that threw failing alone. `served` hears the
 * highest lane round among the jobs (default: written at once).
 */
export async function handleJobs(
  db: Db,
  ctx: AttemptContext,
  fetched: DeliveryJob[],
  served: (round: number) => unknown = (round) =>
    repo.advanceDeliveryRound(db, round),
) {
  // The fetch returns its jobs in no particular order: earlier rounds are submitted first.
  const jobs = [...fetched].sort((a, b) => b.priority - a.priority);
  const round = highestRound(jobs);
  const [rows] = await Promise.all([
    repo.loadForDelivery(
      db,
      jobs.map((job) => job.data.messageId),
      jobs.map((job) => job.id),
    ),
    round === null ? null : served(round),
  ]);
  const released = rows.filter((row) => row.released).length;
  if (released > 0) ctx.observer.messages?.('ACCEPTED', released);
  // The release's re-check stopped these (CONTRACT "Stopping traffic"): CANCELED and refunded.
  const stopped = rows.filter((row) => row.stopped).length;
  if (stopped > 0) {
    ctx.observer.messages?.('CANCELED', stopped);
    ctx.logger.info(
      { messages: stopped },
      'messages no longer allowed cancelled and refunded at release',
    );
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  return Promise.all(
    jobs.map(async (job) => {
      try {
        return {
          id: job.id,
          status: await attemptDelivery(ctx, job, byId.get(job.data.messageId)),
        };
      } catch (err) {
        ctx.logger.error(
          { err, messageId: job.data.messageId },
          'delivery job failed',
        );
        ctx.retryIn();
        return { id: job.id, status: 'failed' as const };
      }
    }),
  );
}

/** Starts `count` workers on the delivery queue; the result wakes them all. */
export async function startDeliveryWorkers(
  boss: PgBoss,
  db: Db,
  ctx: AttemptContext,
  count: number,
  batchSize = DELIVERY_BATCH_SIZE,
): Promise<() => void> {
  const workIds: string[] = [];
  const served = servedRounds(db, ctx.logger);
  for (let i = 0; i < count; i++) {
    workIds.push(
      await boss.work(
        DELIVERY_QUEUE,
        {
          batchSize,
          includeMetadata: true,
          perJobResults: true,
          // Woken by this node's sends and by the alarm: polling is only a backstop.
          pollingIntervalSeconds: WORKER_POLL_SECONDS,
          burstWhenBatchFull: true,
        },
        (jobs: DeliveryJob[]) => handleJobs(db, ctx, jobs, served),
      ),
    );
  }
  return () => {
    for (const id of workIds) boss.notifyWorker(id);
  };
}

/**
 * The embedded database (PGlite or the server's own PostgreSQL) has one process: a job still
 * active at start was being delivered by a server that was killed. Hand such jobs back to the
 * queue now rather than after their expiry. (On a shared PostgreSQL other nodes may be working
 * on theirs: there the heartbeat and the expiry decide.)
 */
export async function reclaimOrphanedJobs(
  boss: PgBoss,
  db: Db,
  logger: DeliveryLogger,
): Promise<void> {
  const ids = await repo.activeJobIds(db);
  if (ids.length === 0) return;
  await boss.fail(DELIVERY_QUEUE, ids, {
    message: 'the server delivering it stopped',
  });
  logger.info(
    { jobs: ids.length },
    'delivery jobs of a stopped server handed back',
  );
}
