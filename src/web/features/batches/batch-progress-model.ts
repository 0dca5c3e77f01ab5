import type { Batch } from '../../../shared/schemas/campaigns';
import {
  FINAL_MESSAGE_STATES,
  MESSAGE_STATES,
  type MessageState,
} from '../../../shared/schemas/messages';

/** A batch with messages on their way is asked again this often. */
export const BATCH_REFRESH_MS = 3000;
/** A batch whose only unfinished messages are scheduled changes only when released or cancelled. */
export const SCHEDULED_REFRESH_MS = 30_000;

export interface ProgressPart {
  state: MessageState;
  count: number;
  /** Of the batch's messages, 0 to 100. */
  percent: number;
}

/** The batch's messages by state, in the order of the lifecycle, leaving out empty states. */
export function progressParts(batch: Pick<Batch, 'states'>): ProgressPart[] {
  const total = MESSAGE_STATES.reduce(
    (sum, s) => sum + (batch.states[s] ?? 0),
    0,
  );
  return MESSAGE_STATES.filter((state) => (batch.states[state] ?? 0) > 0).map(
    (state) => {
      const count = batch.states[state] ?? 0;
      return { state, count, percent: total ? (count / total) * 100 : 0 };
    },
  );
}

/** How many of its messages are in a final state. */
export function finalCount(batch: Pick<Batch, 'states'>): number {
  return FINAL_MESSAGE_STATES.reduce(
    (sum, state) => sum + (batch.states[state] ?? 0),
    0,
  );
}

export function isBatchFinal(batch: Pick<Batch, 'states'>): boolean {
  return MESSAGE_STATES.every(
    (state) =>
      FINAL_MESSAGE_STATES.includes(state) || !(batch.states[state] ?? 0),
  );
}

/** Every few seconds while messages are on their way, slowly while only scheduled ones wait. */
export function batchRefreshMs(
  batch: Pick<Batch, 'states'> | undefined,
): number | false {
  if (!batch || isBatchFinal(batch)) return false;
  const moving = MESSAGE_STATES.some(
    (state) =>
      state !== 'SCHEDULED' &&
      !FINAL_MESSAGE_STATES.includes(state) &&
      (batch.states[state] ?? 0) > 0,
  );
  return moving ? BATCH_REFRESH_MS : SCHEDULED_REFRESH_MS;
}
