import {
  MESSAGE_STATES,
  type Message,
  type MessageAttempt,
  type MessageDetail,
  type MessageList,
  type MessageState,
} from '../../../shared/schemas/messages';

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

/** Whose messages: a customer's own client, or any client seen by staff (the admin calls). */
export interface MessageSource {
  clientId: string;
  asAdmin?: boolean;
}

/** `/clients/{id}/messages` or `/admin/clients/{id}/messages`, under the API base. */
export function messagesPath({ clientId, asAdmin }: MessageSource): string {
  return `${asAdmin ? '/admin' : ''}/clients/${encodeURIComponent(clientId)}/messages`;
}
