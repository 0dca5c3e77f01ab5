/**
 * The status-callback worker: each job is one event of one message (queued by the state
 * change itself, migrations/006-status-callbacks.sql). A job POSTs the event once; a failure
 * is recorded and queues the next try as a new job after callbackRetryDelaySeconds, so the
 * schedule (first retry within 30 s, then growing for about 26 hours) survives restarts.
 *
 * Fair to every client: a receiver that never answers holds a try for 10 s, and one client can
 * have thousands of events queued. So
 * - every job belongs to its client's group (pg-boss `group`, set by migrations/011), and a
 *   fetch skips the groups that already have CALLBACKS_PER_CLIENT jobs active on any node
 *   (pg-boss `groupConcurrency`, counted in the database): one client's backlog or slow
 *   receiver never takes more than that many slots, and its excess stays queued without
 *   blocking anyone else's jobs behind it;
 * - up to MAX_IN_FLIGHT jobs run at once on this node, each completed on its own the moment it
 *   is done (no batch waits for its slowest job), and a freed slot is refilled at once.
 * A job fetched and never completed (the node died) stays active until the queue's expiry
 * (60 s), then runs again: delivery is at least once.
 */
import type { Job, PgBoss } from 'pg-boss';
import type { Db } from '../../db/client.ts';
import { WORKER_POLL_SECONDS } from '../alarm.ts';
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

/** Jobs of one client active at once, over every node. */
export const CALLBACKS_PER_CLIENT = 4;
/** Jobs running at once on one node. */
export const MAX_IN_FLIGHT = 32;
/**
 * Pause between fetches while the queue has nothing for us: a backstop only, the queue alarm
 * (src/server/delivery/alarm.ts) wakes the worker when a job is queued or becomes due.
 */
const IDLE_POLL_MS = WORKER_POLL_SECONDS * 1000;
/** How long stop() waits for the tries in flight before leaving them to the expiry. */
const STOP_GRACE_MS = 5_000;

export interface CallbackWorkerOptions {
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

export interface CallbackWorker {
  /** Fetches now: a job was queued or became due. */
  wake(): void;
  /** Stops fetching and waits a little for the tries in flight. */
  stop(): Promise<void>;
}

/** The group of a client's callback jobs (migrations/011 uses the same: the client id). */
export function callbackGroup(clientId: string) {
  return { id: clientId };
}

/** Starts this node's callback worker. */
export function startCallbackWorker(
  options: CallbackWorkerOptions,
): CallbackWorker {
  const { boss, db, logger } = options;

  async function deliver(event: CallbackJob): Promise<void> {
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

  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  /** Wakes the loop early: a slot was freed, or stop() was called. */
  let wake: (() => void) | null = null;
  /** Woken from outside while not pausing: the next pause is skipped. */
  let wokenWhileBusy = false;

  async function run(job: Job<CallbackJob>): Promise<void> {
    const attempt = { id: job.id, retryCount: job.retryCount };
    try {
      await deliver(job.data);
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

  async function loop(): Promise<void> {
    while (!stopping) {
      const free = MAX_IN_FLIGHT - inFlight.size;
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs = await boss.fetch<CallbackJob>(CALLBACK_QUEUE, {
            batchSize: free,
            groupConcurrency: CALLBACKS_PER_CLIENT,
          });
          fetched = jobs.length;
          for (const job of jobs) {
            const running: Promise<void> = run(job).finally(() => {
              inFlight.delete(running);
              wake?.();
            });
            inFlight.add(running);
          }
        } catch (err) {
          if (stopping) break;
          logger.error({ err }, 'status callback fetch failed');
        }
      }
      // A full fetch: there is likely more, fetch again as soon as a slot is free. Otherwise
      // (nothing fetchable now) look again after a pause, or when a slot frees up.
      if (stopping || (fetched > 0 && fetched === free)) {
        if (inFlight.size >= MAX_IN_FLIGHT) await pause(null);
        continue;
      }
      await pause(IDLE_POLL_MS);
    }
  }

  /** Waits for `ms` (null: no limit) or until woken. */
  function pause(ms: number | null): Promise<void> {
    if (wokenWhileBusy && ms !== null) {
      wokenWhileBusy = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = ms === null ? undefined : setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  }

  const looping = loop();

  return {
    wake() {
      // A wake-up while fetching is not lost: the loop fetches again after this one.
      if (wake) wake();
      else wokenWhileBusy = true;
    },
    async stop() {
      stopping = true;
      wake?.();
      await looping;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(inFlight),
        new Promise((resolve) => {
          timer = setTimeout(resolve, STOP_GRACE_MS);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
