/**
 * One delivery job's attempt at its message: route it over its client's splits, submit it
 * through each method's connector in turn, and record what happened:
 * - submitted: SUBMITTED, done;
 * - refused: recorded, next method at once;
 * - retry (transient): recorded, the queue runs the job again after its backoff, on the same
 *   method, until policy.ts's budget sends it to the next method;
 * - unavailable / busy: not a try; the message is deferred (within its validity), failing over
 *   only after a long outage (policy.ts);
 * - no method took it: FAILED and refunded.
 * While the node is stopping, a submit cut short by us is handed back to the queue as is.
 */
import type { ConnectorEntry } from './connectors.ts';
import {
  historyOf,
  methodsToTry,
  nextStep,
  type PolicyLimits,
} from './policy.ts';
import type * as repo from './repo.ts';
import { routeFor } from './routing.ts';
import type {
  DeliveryLogger,
  DeliveryMethod,
  DeliveryObserver,
} from './types.ts';
import type { Written } from './writer.ts';

/** What an attempt needs of the node that runs it. */
export interface AttemptContext {
  connectors: ReadonlyMap<DeliveryMethod, ConnectorEntry>;
  /** DEFAULT_DELIVERY_METHOD: the route of a client without splits. */
  defaultMethod: DeliveryMethod;
  limits: PolicyLimits;
  observer: DeliveryObserver;
  logger: DeliveryLogger;
  /** The group-committed writer (writer.ts). */
  write(item: Written): Promise<void>;
  /** The node is stopping: connectors cut pending submits short. */
  stopping(): boolean;
  /** A job of this node's will run again in `seconds` or later (the queue alarm looks then). */
  laterIn(seconds: number): void;
  /** The job failed: pg-boss runs it again after its first backoff. */
  retryIn(): void;
}

/** The job's fields an attempt reads. */
export interface AttemptJob {
  id: string;
  retryCount: number;
  retryLimit: number;
}

/** 'failed': the queue runs the job again (backoff); 'completed': nothing more to do now. */
export async function attemptDelivery(
  ctx: AttemptContext,
  job: AttemptJob,
  row: repo.DeliveryRow | undefined,
): Promise<'completed' | 'failed'> {
  const { connectors, limits, observer, logger } = ctx;
  if (!row || row.state !== 'ACCEPTED') return 'completed'; // done already (a duplicate job)
  // A newer job holds the message waiting: this one was handed back after a crash between
  // that job's write and this one's completion. Running it too could submit the message twice.
  if (row.waitingJob && row.waitingJob !== job.id) return 'completed';
  const route = row.route ?? routeFor(row.splits, ctx.defaultMethod);
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
    // Waiting for a slot, the message takes its turn in its client's lane (fair delivery).
    const release = await entry.slots?.acquire(undefined, row.clientId);
    let outcome;
    try {
      const started = performance.now();
      outcome = await entry.connector.submit({
        messageId: row.id,
        from: row.sender,
        to: row.recipient,
        text: row.body,
        encoding: row.encoding,
        lane: row.clientId,
      });
      observer.submitted?.(method, (performance.now() - started) / 1000);
      if (outcome.kind === 'submitted') {
        await ctx.write({
          outcome: {
            ...common,
            state: 'SUBMITTED',
            providerMessageIds: outcome.providerMessageIds,
          },
        });
        observer.messages?.('SUBMITTED', 1);
        return 'completed';
      }
    } finally {
      release?.();
    }
    // Closing: the submit was cut short by us, not by the provider; try again after restart.
    if (ctx.stopping() && outcome.kind !== 'refused') return 'failed';
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
      await ctx.write({
        outcome: {
          ...common,
          state: 'FAILED',
          error: `${outcome.error}; still not sent at the end of the message's validity`,
        },
      });
      break;
    }
    if (step.do === 'wait') {
      ctx.laterIn(step.delaySeconds);
      await ctx.write({
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
    await ctx.write({ outcome: { ...common, state, error: outcome.error } });
    logger.info(
      { messageId: row.id, method, state, error: outcome.error },
      'delivery attempt not taken',
    );
    // Backoff: the queue runs the job again later, on this same method.
    if (step.do === 'record-and-retry-later') {
      ctx.retryIn();
      return 'failed';
    }
  }
  await ctx.write({ outcome: { messageId: row.id, fail: true } });
  logger.warn(
    { messageId: row.id, route },
    'no delivery method took the message: FAILED and refunded',
  );
  return 'completed';
}
