/**
 * The delivery workers: take batches of jobs from the durable queue, route each message over
 * its client's splits, submit it through the method's connector, record every attempt, apply
 * receipts, retry transient failures with backoff, fail over, and refund what no method took.
 *
 * Writes are group-committed: outcomes and receipts that arrive while a write is running go
 * together in the next one (one statement each), which is what keeps hundreds of messages per
 * second within reach of the embedded database.
 *
 * Which SQL function moves a message from which state to which, and which trigger queues its
 * status callback: "A message's lifecycle" in migrations/functions/README.md (kept in step with
 * the function files by lifecycle-map.test.ts).
 */
import type { JobWithMetadata, PgBoss } from 'pg-boss';
import type { DeliveryConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { GroupCommit } from '../db/group-commit.ts';
import { startQueueAlarm, WORKER_POLL_SECONDS } from './alarm.ts';
import { startCallbackWorker } from './callbacks/worker.ts';
import {
  CALLBACK_QUEUE,
  DELIVERY_QUEUE,
  oneNode,
  startQueue,
} from './queue.ts';
import type { ReceiptInbox } from './receipt-inbox.ts';
import {
  expiryCheckMs,
  historyOf,
  methodsToTry,
  nextStep,
  OUTAGE_FAILOVER_MS,
  type PolicyLimits,
} from './policy.ts';
import * as repo from './repo.ts';
import { routeFor } from './routing.ts';
import {
  connectorsFor,
  simulatedMethods,
  type ConnectorSettings,
} from './connectors.ts';
import type {
  DeliveryLogger,
  DeliveryMethod,
  DeliveryObserver,
  Receipt,
} from './types.ts';
import type { Waker } from './waker.ts';

/**
 * Messages submitted on the SMPP bind and not yet recorded, per window slot. It bounds what a
 * crash can duplicate (a message the SMSC took whose answer was not written yet is sent again
 * after the restart) at this × SMPP_WINDOW, while leaving room for the time a commit takes:
 * holding each of only `window` messages until its commit capped throughput at window / commit
 * latency (about 150/s on PostgreSQL here).
 */
export const UNRECORDED_PER_WINDOW_SLOT = 10;
/** Jobs fetched at once by a worker. */
export const DELIVERY_BATCH_SIZE = 100;

export interface DeliveryOptions {
  config: DeliveryConfig;
  databaseUrl: string | undefined;
  db: Db;
  logger: DeliveryLogger;
  wake: Waker;
  /** Where this node's webhook routes hand receipts; attached to the connectors while running. */
  receipts?: ReceiptInbox;
  /** Told what this node's workers do (metrics). */
  observer?: DeliveryObserver;
  /** Tests: the simulator's delay before its DELIVERED receipt (default 200 ms). */
  simulatorDelayMs?: number;
  /** Tests: first retry delay in seconds (default 1). */
  retryDelaySeconds?: number;
  /** Tests: the SMPP connector's timers (see SmppConnectorOptions). */
  smpp?: ConnectorSettings['smpp'];
  /** Tests: OUTAGE_FAILOVER_MS. */
  outageFailoverMs?: number;
  /** Tests: the queue alarm's look when nothing is due (IDLE_CHECK_MS). */
  queueIdleCheckMs?: number;
}

/** What tests may shorten (never set in production). */
export type DeliveryTuning = Pick<
  DeliveryOptions,
  | 'simulatorDelayMs'
  | 'retryDelaySeconds'
  | 'smpp'
  | 'outageFailoverMs'
  | 'queueIdleCheckMs'
>;

export interface Delivery {
  /** FAILED and refunded, exactly once however many callers race (what the workers use). */
  failMessages(ids: string[]): Promise<string[]>;
  /** Queues the messages' delivery again, as a duplicated job would. */
  enqueue(ids: string[]): Promise<void>;
  /** Stops fetching, closes the connectors (pending submits come back to the queue), flushes. */
  stop(): Promise<void>;
  /** Delivery jobs waiting for a worker, on every node. */
  queueDepth(): Promise<number>;
  /** This node's connectors that hold a connection (the SMPP bind): whether each is up. */
  binds(): Partial<Record<DeliveryMethod, boolean>>;
  /**
   * The methods this node's configuration sends to the built-in simulator (no connector). A node
   * without workers delivers nothing itself: its configuration is meant to be its workers'.
   */
  readonly simulatedMethods: readonly DeliveryMethod[];
}

/**
 * Starts the queue (every node: its schema must exist before a send), and with
 * `config.workers` > 0 the connectors and that many workers.
 */
export async function startDelivery(
  options: DeliveryOptions,
): Promise<Delivery> {
  const { config, db, logger } = options;
  const boss = await startQueue({
    databaseUrl: options.databaseUrl,
    db,
    workers: config.workers,
    logger,
    retryDelaySeconds: options.retryDelaySeconds,
  });
  const observer = options.observer ?? {};
  const base = {
    failMessages: (ids: string[]) => repo.failMessages(db, ids),
    enqueue: (ids: string[]) => repo.enqueue(db, ids),
    queueDepth: () => repo.queueDepth(db),
    binds: () => ({}),
    simulatedMethods: simulatedMethods(config),
  };
  if (config.workers === 0) {
    return { ...base, stop: () => boss.stop({ graceful: false, close: true }) };
  }
  if (oneNode(db)) await reclaimOrphanedJobs(boss, db, logger);
  // Never silent (CONTRACT.md "Running it in production"): once per method, at start.
  for (const method of base.simulatedMethods) {
    logger.warn(
      { method, simulated: true },
      `delivery method ${method} has no connector configured: its messages go to the built-in simulator, which reports them DELIVERED without sending anything`,
    );
  }

  const connectors = connectorsFor(
    {
      config,
      logger,
      simulatorDelayMs: options.simulatorDelayMs,
      smpp: options.smpp,
    },
    UNRECORDED_PER_WINDOW_SLOT,
  );
  // Outcomes and receipts share one writer: one statement per batch of both. record_delivery is
  // one transaction, so a failed batch can be bisected: an item the database refuses fails only
  // itself, instead of losing every outcome with it (their jobs would run again: duplicates).
  // A deferral carries its attempt (if any) so that both are written, or neither.
  type Written =
    | { outcome: repo.Outcome }
    | { receipt: repo.ReceiptRow }
    | { defer: repo.Deferral; attempt: repo.Outcome | null };
  // Messages reaching a final state (FAILED included) are counted by the write that moved them,
  // once each: not per receipt, which a message of several parts gets several of.
  const writer = new GroupCommit<Written>(
    async (items) => {
      const batch = [
        items.flatMap((i) =>
          'outcome' in i
            ? [i.outcome]
            : 'attempt' in i && i.attempt
              ? [i.attempt]
              : [],
        ),
        items.flatMap((i) => ('receipt' in i ? [i.receipt] : [])),
        items.flatMap((i) => ('defer' in i ? [i.defer] : [])),
      ] as const;
      const at = await repo.recordDelivery(db, ...batch);
      // Counted after the commit, without holding up the writer's next batch; a failed count
      // (the database gone meanwhile) loses a count, never a write.
      if (observer.messages) {
        repo.movedToFinal(db, at, batch[0], batch[1]).then(
          (moved) => {
            for (const { state, count } of moved) {
              observer.messages?.(state, count);
            }
          },
          (err: unknown) =>
            logger.warn({ err }, 'counting the messages moved failed'),
        );
      }
    },
    { max: 1000, isolateFailures: true },
  );
  const outcomes = {
    push: (outcome: repo.Outcome) => writer.push({ outcome }),
  };
  const limits: PolicyLimits = {
    retryDelaySeconds: options.retryDelaySeconds ?? 1,
    validityMs: config.messageValiditySeconds * 1000,
    outageFailoverMs: options.outageFailoverMs ?? OUTAGE_FAILOVER_MS,
  };
  const recordReceipt = async (method: DeliveryMethod, receipt: Receipt) => {
    await writer.push({ receipt: { method, ...receipt } });
  };
  for (const [method, { connector }] of connectors) {
    connector.onReceipt((receipt: Receipt) => recordReceipt(method, receipt));
  }
  // Webhook receipts (already checked and cleaned by the ReceiptInbox) go to the same writer;
  // a method simulated on this node still records what its webhook got (another node may send
  // on it).
  options.receipts?.attach(recordReceipt);
  let stopping = false;

  async function deliver(
    job: JobWithMetadata<{ messageId: string }>,
    row: repo.DeliveryRow | undefined,
  ): Promise<'completed' | 'failed'> {
    if (!row || row.state !== 'ACCEPTED') return 'completed'; // done already (a duplicate job)
    // A newer job holds the message waiting: this one was handed back after a crash between
    // that job's write and this one's completion. Running it too could submit the message twice.
    if (row.waitingJob && row.waitingJob !== job.id) return 'completed';
    const route = row.route ?? routeFor(row.splits, config.defaultMethod);
    const history = historyOf(row.attempts);
    // The queue's own budget is a last resort: on its final run every method counts as tried.
    const lastRun = job.retryCount >= job.retryLimit - 1;
    const order = methodsToTry(route, history, limits);
    for (const [index, method] of order.entries()) {
      const entry = connectors.get(method)!;
      const common = {
        messageId: row.id,
        method,
        route,
        simulated: entry.simulated,
      };
      const release = await entry.slots?.acquire();
      let outcome;
      try {
        const started = performance.now();
        outcome = await entry.connector.submit({
          messageId: row.id,
          from: row.sender,
          to: row.recipient,
          text: row.body,
          encoding: row.encoding,
        });
        observer.submitted?.(method, (performance.now() - started) / 1000);
        if (outcome.kind === 'submitted') {
          await outcomes.push({
            ...common,
            state: 'SUBMITTED',
            providerMessageIds: outcome.providerMessageIds,
          });
          observer.messages?.('SUBMITTED', 1);
          return 'completed';
        }
      } finally {
        release?.();
      }
      // Closing: the submit was cut short by us, not by the provider; try again after restart.
      if (stopping && outcome.kind !== 'refused') return 'failed';
      const step = nextStep(
        outcome,
        {
          method,
          history,
          moreMethods: index < order.length - 1,
          lastRun,
          messageAgeMs: row.ageMs,
        },
        limits,
      );
      if (step.do === 'next') continue;
      if (step.do === 'give-up') {
        await outcomes.push({
          ...common,
          state: 'FAILED',
          error: `${outcome.error}; still not sent at the end of the message's validity`,
        });
        break;
      }
      if (step.do === 'wait') {
        laterIn(step.delaySeconds);
        await writer.push({
          defer: {
            messageId: row.id,
            delaySeconds: step.delaySeconds,
            route,
          },
          // One attempt per outage tells the user why the message waits.
          attempt: step.noteUnavailable
            ? {
                ...common,
                state: 'UNAVAILABLE',
                error: `${outcome.error}; waiting for it (not counted as a try)`,
              }
            : null,
        });
        return 'completed';
      }
      const state = step.do === 'record-and-next' ? step.state : 'FAILED';
      await outcomes.push({ ...common, state, error: outcome.error });
      logger.info(
        { messageId: row.id, method, state, error: outcome.error },
        'delivery attempt not taken',
      );
      // Backoff: the queue runs the job again later, on this same method.
      if (step.do === 'record-and-retry-later') {
        retryIn();
        return 'failed';
      }
    }
    await outcomes.push({ messageId: row.id, fail: true });
    logger.warn(
      { messageId: row.id, route },
      'no delivery method took the message: FAILED and refunded',
    );
    return 'completed';
  }

  async function handle(jobs: JobWithMetadata<{ messageId: string }>[]) {
    const rows = await repo.loadForDelivery(
      db,
      jobs.map((job) => job.data.messageId),
      jobs.map((job) => job.id),
    );
    const released = rows.filter((row) => row.released).length;
    if (released > 0) observer.messages?.('ACCEPTED', released);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return Promise.all(
      jobs.map(async (job) => {
        try {
          return {
            id: job.id,
            status: await deliver(job, byId.get(job.data.messageId)),
          };
        } catch (err) {
          logger.error(
            { err, messageId: job.data.messageId },
            'delivery job failed',
          );
          retryIn();
          return { id: job.id, status: 'failed' as const };
        }
      }),
    );
  }

  const workIds: string[] = [];
  /** What wakes each queue's workers, once they run (they fetch once when they start). */
  const wakers = new Map<string, () => void>();
  const alarm = startQueueAlarm({
    db,
    databaseUrl: options.databaseUrl,
    queues: [DELIVERY_QUEUE, CALLBACK_QUEUE],
    wake: (queue) => wakers.get(queue)?.(),
    idleCheckMs: options.queueIdleCheckMs,
    logger,
  });
  /**
   * A job of this node's will run again in `seconds` or later (a retry's backoff, which pg-boss
   * lengthens at random, or a deferral): the alarm looks then and wakes the workers on time.
   */
  function laterIn(seconds: number) {
    alarm.expect(seconds * 1000);
  }
  /** pg-boss's first backoff: at least the retry delay, and at least 1 s. */
  const retryIn = () => laterIn(Math.max(limits.retryDelaySeconds, 1));

  for (let i = 0; i < config.workers; i++) {
    workIds.push(
      await boss.work(
        DELIVERY_QUEUE,
        {
          batchSize: DELIVERY_BATCH_SIZE,
          includeMetadata: true,
          perJobResults: true,
          // Woken by this node's sends and by the alarm: polling is only a backstop.
          pollingIntervalSeconds: WORKER_POLL_SECONDS,
          burstWhenBatchFull: true,
        },
        handle,
      ),
    );
  }
  const wakeWorkers = () => {
    for (const id of workIds) boss.notifyWorker(id);
  };
  options.wake.listen(wakeWorkers);
  wakers.set(DELIVERY_QUEUE, wakeWorkers);
  const callbacks = startCallbackWorker({
    boss,
    db,
    logger,
    observer,
    allowPrivate: config.statusCallbackAllowPrivate,
    dns: config.statusCallbackDns,
    later: (seconds) => laterIn(seconds),
  });
  wakers.set(CALLBACK_QUEUE, () => callbacks.wake());

  // Expired idempotency keys and never-claimed receipts only take space.
  const housekeeping = setInterval(
    () =>
      void repo
        .deleteExpired(db)
        .catch((err) => logger.warn({ err }, 'delivery housekeeping failed')),
    3_600_000,
  );
  housekeeping.unref();

  // Expiry: SUBMITTED past the validity with no final receipt → EXPIRED, a bounded batch per
  // statement until none is left. Every node runs it (expire_messages is safe to race); one
  // pass at a time on this node.
  let expiring: Promise<void> | null = null;
  async function expire() {
    try {
      for (;;) {
        const ids = await repo.expireMessages(
          db,
          config.messageValiditySeconds,
        );
        if (ids.length > 0) {
          observer.messages?.('EXPIRED', ids.length);
          logger.info(
            { messages: ids.length },
            'no receipt within the validity period: EXPIRED',
          );
        }
        if (ids.length < repo.EXPIRE_BATCH || stopping) return;
      }
    } catch (err) {
      logger.warn({ err }, 'message expiry failed');
    }
  }
  const expiry = setInterval(() => {
    expiring ??= expire().finally(() => (expiring = null));
  }, expiryCheckMs(config.messageValiditySeconds));
  expiry.unref();

  return {
    ...base,
    binds: () => {
      const up: Partial<Record<DeliveryMethod, boolean>> = {};
      for (const [method, { connector }] of connectors) {
        if (connector.isUp) up[method] = connector.isUp();
      }
      return up;
    },
    async stop() {
      stopping = true;
      clearInterval(housekeeping);
      clearInterval(expiry);
      await expiring;
      options.wake.listen(null);
      options.receipts?.attach(null);
      await alarm.stop();
      await boss.offWork(DELIVERY_QUEUE, { wait: false });
      await callbacks.stop();
      // Pending submits resolve as 'retry' (their jobs run again after a restart); the
      // simulator reports the receipts it still owes.
      await Promise.all(
        [...connectors.values()].map(({ connector }) => connector.close()),
      );
      await boss.stop({ graceful: true, timeout: 5_000, close: true });
      await writer.drain();
    },
  };
}

/**
 * The embedded database (PGlite or the server's own PostgreSQL) has one process: a job still
 * active at start was being delivered by a server that was killed. Hand such jobs back to the
 * queue now rather than after their expiry. (On a shared PostgreSQL other nodes may be working
 * on theirs: there the heartbeat and the expiry decide.)
 */
async function reclaimOrphanedJobs(
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
