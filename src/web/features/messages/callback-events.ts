import {
  CALLBACK_MAX_TRIES,
  CALLBACK_RETRY_DELAYS_SECONDS,
} from '../../../shared/limits';
import type { MessageCallback } from '../../../shared/schemas/messages';

/**
 * The tries of one status callback event (one state change of the message), oldest first,
 * and what comes of them: received (a 2xx answer), retried at `nextTryAt`, or given up after
 * the last try of the schedule (CONTRACT "Status callbacks").
 */
export interface CallbackEvent {
  state: string;
  tries: MessageCallback[];
  last: MessageCallback;
  outcome: 'received' | 'retrying' | 'given-up';
  /** When the next try is due (the schedule's delay after the last one); null unless retrying. */
  nextTryAt: Date | null;
  triesLeft: number;
}

/** Groups a message's callback tries (oldest first) by event, in the order the events came. */
export function groupCallbacks(callbacks: MessageCallback[]): CallbackEvent[] {
  const groups: MessageCallback[][] = [];
  const open = new Map<string, MessageCallback[]>();
  for (const callback of callbacks) {
    let tries = open.get(callback.state);
    // A first try again for the same state is a new event.
    if (!tries || callback.attempt === 1) {
      tries = [];
      open.set(callback.state, tries);
      groups.push(tries);
    }
    tries.push(callback);
  }
  return groups.map((tries) => {
    const last = tries.reduce((a, b) => (b.attempt >= a.attempt ? b : a));
    const triesLeft = Math.max(0, CALLBACK_MAX_TRIES - last.attempt);
    if (last.error === null) {
      return {
        state: last.state,
        tries,
        last,
        outcome: 'received',
        nextTryAt: null,
        triesLeft: 0,
      };
    }
    const delay = CALLBACK_RETRY_DELAYS_SECONDS[last.attempt - 1];
    if (delay === undefined) {
      return {
        state: last.state,
        tries,
        last,
        outcome: 'given-up',
        nextTryAt: null,
        triesLeft: 0,
      };
    }
    const nextTryAt = new Date(Date.parse(last.dateCreated) + delay * 1000);
    return {
      state: last.state,
      tries,
      last,
      outcome: 'retrying',
      nextTryAt,
      triesLeft,
    };
  });
}
