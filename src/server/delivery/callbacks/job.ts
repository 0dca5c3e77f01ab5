/**
 * One callback job (a message's status event, or an inbound message's event): POST its event
 * once, queue the next try on a failure (after callbackRetryDelaySeconds, as a new job, so the
 * schedule survives restarts), record the try, and complete the job, or hand it back to the
 * queue when the failure is ours (the database).
 */
import type { Job, PgBoss } from 'pg-boss';
import type { Db } from '../../db/client.ts';
import { CALLBACK_QUEUE, CALLBACK_RETRY_DELAY_SECONDS } from '../queue.ts';
import type { DeliveryLogger, DeliveryObserver } from '../types.ts';
import {
  callbackBody,
  inboundCallbackBody,
  type CallbackMessage,
  type InboundCallbackMessage,
} from './body.ts';
import type { DnsOptions } from './dns.ts';
import type { CallbackUrlField } from './target.ts';
import * as repo from './repo.ts';
import {
  CALLBACK_TIMEOUT_MS,
  callbackRetryDelaySeconds,
  postCallback,
} from './send.ts';

/**
 * A queued status event (made in SQL, migrations/functions/status_callback_events.sql): the
 * message's `simulated` is read when it is sent. It has no `type`.
 */
export type StatusCallbackJob = Omit<CallbackMessage, 'simulated'> & {
  type?: undefined;
  attempt: number;
};

/** A queued inbound event (functions/inbound_messages_inserted_callbacks.sql). */
export type InboundCallbackJob = InboundCallbackMessage & {
  type: 'inbound';
  attempt: number;
};

/** Both kinds share the queue, its per-client groups, the worker and the retry schedule. */
export type CallbackJob = StatusCallbackJob | InboundCallbackJob;

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

/** What one try of an event needs: where, what, and how its outcome is kept. */
interface Delivery {
  url: string;
  body: string;
  signingKey: string;
  field: CallbackUrlField;
  record(outcome: {
    httpStatus: number | null;
    error: string | null;
  }): Promise<void>;
}

/** A status event's delivery, or null when the client has no status callback URL any more. */
async function statusDelivery(
  db: Db,
  event: StatusCallbackJob,
): Promise<Delivery | null> {
  const target = await repo.findTarget(db, event.clientId, event.messageId);
  if (!target) return null;
  return {
    url: target.url,
    body: callbackBody({ ...event, simulated: target.simulated }),
    signingKey: target.signingKey,
    field: 'statusCallbackUrl',
    record: (outcome) =>
      repo.recordAttempts(db, [
        {
          messageId: event.messageId,
          clientId: event.clientId,
          state: event.state,
          attempt: event.attempt,
          ...outcome,
        },
      ]),
  };
}

/** An inbound event's delivery, or null when the client has no inbound callback URL any more. */
async function inboundDelivery(
  db: Db,
  event: InboundCallbackJob,
): Promise<Delivery | null> {
  const target = await repo.findInboundTarget(db, event.clientId);
  if (!target) return null;
  return {
    url: target.url,
    body: inboundCallbackBody(event),
    signingKey: target.signingKey,
    field: 'inboundCallbackUrl',
    record: (outcome) =>
      repo.recordInboundAttempt(db, {
        inboundMessageId: event.messageId,
        clientId: event.clientId,
        attempt: event.attempt,
        ...outcome,
      }),
  };
}

/** POSTs the event once and records the try; rejects only on our own failures. */
async function deliverEvent(
  options: CallbackJobOptions,
  event: CallbackJob,
): Promise<void> {
  const { boss, db, logger } = options;
  const delivery =
    event.type === 'inbound'
      ? await inboundDelivery(db, event)
      : await statusDelivery(db, event);
  if (!delivery) return; // the URL was removed since: nobody to tell
  const result = await postCallback(
    delivery.url,
    delivery.body,
    delivery.signingKey,
    {
      allowPrivate: options.allowPrivate,
      dns: options.dns,
      clientId: event.clientId,
      field: delivery.field,
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
          kind: event.type ?? 'status',
          state: event.type === 'inbound' ? undefined : event.state,
          error: result.error,
        },
        `${event.type ?? 'status'} callback given up after its last attempt`,
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
  await delivery.record({
    httpStatus: result.status ?? null,
    error: result.ok ? null : (result.error ?? 'failed'),
  });
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
      { err, messageId: job.data.messageId, kind: job.data.type ?? 'status' },
      'callback job failed',
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
