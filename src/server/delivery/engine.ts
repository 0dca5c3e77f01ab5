/**
 * Delivery on this node, wired from its parts: the queue (queue.ts), the connectors
 * (connectors.ts), one message's attempt (attempt.ts) run by the workers (jobs.ts), the one
 * group-committed writer of outcomes and receipts (writer.ts), the queue alarm that wakes the
 * workers (alarm.ts), the status-callback worker (callbacks/worker.ts), the keyword auto-reply
 * worker (../inbound/keyword-replies.ts) and expiry (expiry.ts).
 *
 * Which SQL function moves a message from which state to which, and which trigger queues its
 * status callback: "A message's lifecycle" in migrations/functions/README.md (kept in step with
 * the function files by lifecycle-map.test.ts).
 */
import { startKeywordReplyWorker } from '../inbound/keyword-replies.ts';
import { startQueueAlarm } from './alarm.ts';
import type { AttemptContext } from './attempt.ts';
import { startCallbackWorker } from './callbacks/worker.ts';
import { bindsOf, connectorsFor, simulatedMethods } from './connectors.ts';
import { startExpiry } from './expiry.ts';
import { reclaimOrphanedJobs, startDeliveryWorkers } from './jobs.ts';
import { OUTAGE_FAILOVER_MS, type PolicyLimits } from './policy.ts';
import {
  CALLBACK_QUEUE,
  DELIVERY_QUEUE,
  KEYWORD_REPLY_QUEUE,
  oneNode,
  startQueue,
} from './queue.ts';
import * as repo from './repo.ts';
import {
  UNRECORDED_PER_WINDOW_SLOT,
  type Delivery,
  type DeliveryOptions,
} from './engine-types.ts';
import { routeReceipts, startWriter } from './writer.ts';

export {
  UNRECORDED_PER_WINDOW_SLOT,
  type Delivery,
  type DeliveryOptions,
  type DeliveryTuning,
} from './engine-types.ts';

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

  const { simulatorDelayMs, smpp } = options;
  const connectors = connectorsFor(
    { config, logger, simulatorDelayMs, smpp },
    UNRECORDED_PER_WINDOW_SLOT,
  );
  const writer = startWriter(db, observer, logger);
  const limits: PolicyLimits = {
    retryDelaySeconds: options.retryDelaySeconds ?? 1,
    validityMs: config.messageValiditySeconds * 1000,
    outageFailoverMs: options.outageFailoverMs ?? OUTAGE_FAILOVER_MS,
  };
  const detachReceipts = routeReceipts(writer, connectors, options.receipts);
  let stopping = false;

  /** What wakes each queue's workers, once they run (they fetch once when they start). */
  const wakers = new Map<string, () => void>();
  const alarm = startQueueAlarm({
    db,
    databaseUrl: options.databaseUrl,
    queues: [DELIVERY_QUEUE, CALLBACK_QUEUE, KEYWORD_REPLY_QUEUE],
    wake: (queue) => wakers.get(queue)?.(),
    idleCheckMs: options.queueIdleCheckMs,
    logger,
  });
  // A job of this node's will run again in `seconds` or later (a retry's backoff, which pg-boss
  // lengthens at random, or a deferral): the alarm looks then and wakes the workers on time.
  const laterIn = (seconds: number) => alarm.expect(seconds * 1000);
  const ctx: AttemptContext = {
    connectors,
    defaultMethod: config.defaultMethod,
    limits,
    observer,
    logger,
    write: (item) => writer.push(item),
    stopping: () => stopping,
    laterIn,
    // pg-boss's first backoff: at least the retry delay, and at least 1 s.
    retryIn: () => laterIn(Math.max(limits.retryDelaySeconds, 1)),
  };
  const wake = await startDeliveryWorkers(boss, db, ctx, config.workers);
  options.wake.listen(wake);
  wakers.set(DELIVERY_QUEUE, wake);
  const callbacks = startCallbackWorker({
    boss,
    db,
    logger,
    observer,
    allowPrivate: config.statusCallbackAllowPrivate,
    dns: config.statusCallbackDns,
    later: laterIn,
  });
  wakers.set(CALLBACK_QUEUE, () => callbacks.wake());
  const replies = startKeywordReplyWorker({
    boss,
    db,
    logger,
    texts: config.keywordReplies,
    defaultPrice: config.smsPrice,
    wake: options.wake,
    observer,
    later: laterIn,
  });
  wakers.set(KEYWORD_REPLY_QUEUE, () => replies.wake());
  const expiry = startExpiry({
    db,
    validitySeconds: config.messageValiditySeconds,
    observer,
    logger,
  });

  return {
    ...base,
    binds: () => bindsOf(connectors),
    async stop() {
      stopping = true;
      await expiry.stop();
      options.wake.listen(null);
      detachReceipts();
      await alarm.stop();
      await boss.offWork(DELIVERY_QUEUE, { wait: false });
      await callbacks.stop();
      await replies.stop();
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
