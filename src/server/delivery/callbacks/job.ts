/**
 * One status-callback job: POST its event once, queue the next try on a failure (after
 * callbackRetryDelaySeconds, as a new job, so the schedule survives restarts), record the try,
 * and complete the job, or hand it back to the queue when the failure is ours (the database).
 */
import type { Job, PgBoss } from 'pg-boss';
import type { Db } from '../../db/client.ts';
import { CALLBACK_QUEUE, CALLBACK_RETRY_DELAY_SECONDS } from '../queue.ts';
import type { DeliveryLogger, DeliveryObserver } from '../types.ts';
import { callbackBody, type CallbackMessage } from './body.ts';
import type { DnsOptions } from './dns.ts';
import * as repo from './repo.ts';
import {
  CALLBACK_TIMEOUT_MS,
  callbackRetryDelaySeconds,
  postCallback,
} from './send.ts';

/** A queued event (made in SQL): the message's `simulated` is read when it is sent. */
export type CallbackJob = Omit<CallbackMessage, 'simulated'> & {
  attempt: number;
};

export interface CallbackJobOptions {
  boss: PgBoss;
  db: Db;
  logger: DeliveryLogger;
  /** STATUS_CALLBACK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** How target names are resolved (STATUS_CALLBACK_DNS_*). */
  dns?: DnsOptions | undefined;
  timeoutMs?: number;
  /** Told of each POST's outcome (metrics). */
  observer?: DeliveryObserver | undefined;
  /** Told that a job was queued to start in `seconds` (a next try), so it is fetched on time. */
  later?: (seconds: number) => void;
}

/** The group of a client's callback jobs (migrations/011 uses the same: the client id). */
export function callbackGroup(clientId: string) {
  return { id: clientId };
}

/** POSTs the event once and records the try; rejects only on our own failures. */
async function deliverEvent(
  options: CallbackJobOptions,
  event: CallbackJob,
): Promise<void> {
  const { boss, db, logger } = options;
  const target = await repo.findTarget(db, event.clientId, event.messageId);
  if (!target) return; // the URL was removed since: nobody to tell
  const result = await postCallback(
    target.url,
    callbackBody({ ...event, simulated: target.simulated }),
    target.signingKey,
    {
      allowPrivate: options.allowPrivate,
      dns: options.dns,
      clientId: event.clientId,
      timeoutMs: options.timeoutMs ?? CALLBACK_TIMEOUT_MS,
    },
  );
  options.observer?.callback?.(result.ok ? 'ok' : 'failed');
  // The next try is queued before this one is recorded and completed: a crash in between
  // sends the event once more rather than never.
  if (!result.ok) {
    const delay = callbackRetryDelaySeconds(event.attempt);
    if (delay === null) {
      logger.warn(
        {
          messageId: event.messageId,
          state: event.state,
          error: result.error,
        },
        'status callback given up after its last attempt',
      );
    } else {
      await boss.send(
        CALLBACK_QUEUE,
        { ...event, attempt: event.attempt + 1 },
        { startAfter: delay, group: callbackGroup(event.clientId) },
      );
      options.later?.(delay);
    }
  }
  await repo.recordAttempts(db, [
    {
      messageId: event.messageId,
      clientId: event.clientId,
      state: event.state,
      attempt: event.attempt,
      httpStatus: result.status ?? null,
      error: result.ok ? null : (result.error ?? 'failed'),
    },
  ]);
}

/** Runs one fetched job to its end: completed, or failed back to the queue. Never rejects. */
export async function runCallbackJob(
  options: CallbackJobOptions,
  job: Job<CallbackJob>,
): Promise<void> {
  const { boss, logger } = options;
  const attempt = { id: job.id, retryCount: job.retryCount };
  try {
    await deliverEvent(options, job.data);
    await boss.complete(CALLBACK_QUEUE, attempt);
  } catch (err) {
    // Ours (the database), not the receiver's: the queue runs the job again.
    logger.error(
      { err, messageId: job.data.messageId },
      'status callback job failed',
    );
    options.later?.(CALLBACK_RETRY_DELAY_SECONDS);
    await boss
      .fail(CALLBACK_QUEUE, attempt, { message: String(err) })
      .catch((failErr: unknown) =>
        logger.error(
          { err: failErr },
          'status callback job not handed back (it expires)',
        ),
      );
  }
}
