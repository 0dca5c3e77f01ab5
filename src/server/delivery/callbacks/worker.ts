/**
 * The status-callback workers: each job is one event of one message (queued by the state
 * change itself, migrations/006-status-callbacks.sql). A job POSTs the event once; a failure
 * is recorded and queues the next try as a new job after callbackRetryDelaySeconds, so the
 * schedule (first retry within 30 s, then growing for about 26 hours) survives restarts.
 */
import type { Job, PgBoss } from 'pg-boss';
import type { Db } from '../../db/client.ts';
import { CALLBACK_QUEUE } from '../queue.ts';
import type { DeliveryLogger } from '../types.ts';
import { callbackBody, type CallbackMessage } from './body.ts';
import * as repo from './repo.ts';
import {
  CALLBACK_TIMEOUT_MS,
  callbackRetryDelaySeconds,
  postCallback,
} from './send.ts';

export type CallbackJob = CallbackMessage & { attempt: number };

export interface CallbackWorkerOptions {
  boss: PgBoss;
  db: Db;
  logger: DeliveryLogger;
  /** STATUS_CALLBACK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  timeoutMs?: number;
}

/** Starts one worker on the callback queue; returns its id for offWork. */
export async function startCallbackWorker(
  options: CallbackWorkerOptions,
): Promise<string> {
  const { boss, db, logger } = options;

  async function deliver(job: Job<CallbackJob>): Promise<void> {
    const event = job.data;
    const target = await repo.findTarget(db, event.clientId);
    if (!target) return; // the URL was removed since: nobody to tell
    const result = await postCallback(
      target.url,
      callbackBody(event),
      target.signingKey,
      {
        allowPrivate: options.allowPrivate,
        timeoutMs: options.timeoutMs ?? CALLBACK_TIMEOUT_MS,
      },
    );
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
          { startAfter: delay },
        );
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

  return boss.work<CallbackJob>(
    CALLBACK_QUEUE,
    {
      batchSize: 20,
      perJobResults: true,
      pollingIntervalSeconds: 0.5,
    },
    async (jobs) =>
      Promise.all(
        jobs.map(async (job) => {
          try {
            await deliver(job);
            return { id: job.id, status: 'completed' as const };
          } catch (err) {
            // Ours (the database), not the receiver's: the queue runs the job again.
            logger.error(
              { err, messageId: job.data.messageId },
              'status callback job failed',
            );
            return { id: job.id, status: 'failed' as const };
          }
        }),
      ),
  );
}
