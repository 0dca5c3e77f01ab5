/**
 * The callback worker's fetching and scheduling: each job is one event, a message's state change
 * (queued by the state change itself, migrations/006-status-callbacks.sql) or an inbound message
 * (queued by its write, functions/inbound_messages_inserted_callbacks.sql; both kinds share the
 * queue, the per-client groups below and the schedule), run by job.ts (one
 * POST; a failure queues the next try as a new job, so the schedule, first retry within 30 s
 * then growing for about 26 hours, survives restarts).
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
import { WORKER_POLL_SECONDS } from '../alarm.ts';
import { CALLBACK_QUEUE } from '../queue.ts';
import {
  runCallbackJob,
  type CallbackJob,
  type CallbackJobOptions,
} from './job.ts';

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

export type CallbackWorkerOptions = CallbackJobOptions;

export interface CallbackWorker {
  /** Fetches now: a job was queued or became due. */
  wake(): void;
  /** Stops fetching and waits a little for the tries in flight. */
  stop(): Promise<void>;
}

/** Starts this node's callback worker. */
export function startCallbackWorker(
  options: CallbackWorkerOptions,
): CallbackWorker {
  const { boss, logger } = options;

  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  /** Wakes the loop early: a slot was freed, or stop() was called. */
  let wake: (() => void) | null = null;
  /** Woken from outside while not pausing: the next pause is skipped. */
  let wokenWhileBusy = false;

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
            const running: Promise<void> = runCallbackJob(options, job).finally(
              () => {
                inFlight.delete(running);
                wake?.();
              },
            );
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
