import {
  MESSAGE_STATES,
  type Message,
  type MessageAttempt,
  type MessageDetail,
  type MessageList,
  type MessageState,
} from '../../../shared/schemas/messages';
import { groupCallbacks } from './callback-events';

/** The message log's view of the Delivery contract: the server's own schemas. */
export { MESSAGE_STATES };
export type { MessageDetail, MessageList, MessageState };
export type LoggedMessage = Message;
export type DeliveryAttempt = MessageAttempt;

/** States a message leaves on its own: the log keeps refreshing while one is listed. */
const IN_FLIGHT: readonly string[] = ['ACCEPTED', 'SUBMITTED'];

export function isMessageState(value: string): value is MessageState {
  return (MESSAGE_STATES as readonly string[]).includes(value);
}

/** Interval of the live refresh while messages are in flight. */
export const LIVE_REFRESH_MS = 2000;

export function isInFlight(message: { state: string }): boolean {
  return IN_FLIGHT.includes(message.state);
}

/**
 * How long after its last state change a message's panel keeps refreshing: its status callback
 * is queued by that change and tried moments later, so a message that became final just before
 * the panel read it may not show that try yet.
 */
export const CALLBACK_SETTLE_MS = 60_000;

/**
 * Whether the message panel keeps refreshing: while the message is in flight, while one of its
 * status callback events is being retried, and for a while after its last state change.
 */
export function isLive(message: MessageDetail, now = Date.now()): boolean {
  return (
    isInFlight(message) ||
    groupCallbacks(message.callbacks).some(
      (event) => event.outcome === 'retrying',
    ) ||
    now - Date.parse(message.dateUpdated) < CALLBACK_SETTLE_MS
  );
}

/** Whose messages: a customer's own client, or any client seen by staff (the admin calls). */
export interface MessageSource {
  clientId: string;
  asAdmin?: boolean;
}

/** `/clients/{id}/messages` or `/admin/clients/{id}/messages`, under the API base. */
export function messagesPath({ clientId, asAdmin }: MessageSource): string {
  return `${asAdmin ? '/admin' : ''}/clients/${encodeURIComponent(clientId)}/messages`;
}
