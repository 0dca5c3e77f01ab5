import type { Message } from '../../../shared/schemas/messages';

/**
 * The message log's view of the Delivery contract (CONTRACT.md "Message states", "Calls"). The
 * shared Message schema gains these fields with the server's delivery work; until then the
 * console names them here, and only here.
 */
export const MESSAGE_STATES = [
  'ACCEPTED',
  'SUBMITTED',
  'DELIVERED',
  'UNDELIVERED',
  'EXPIRED',
  'REJECTED',
  'FAILED',
] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

/** States a message leaves on its own: the log keeps refreshing while one is listed. */
const IN_FLIGHT: readonly string[] = ['ACCEPTED', 'SUBMITTED'];

export function isMessageState(value: string): value is MessageState {
  return (MESSAGE_STATES as readonly string[]).includes(value);
}

/** A message in the log: `deliveryMethod` is null until routed; `simulated` by the simulator. */
export type LoggedMessage = Message & {
  deliveryMethod: string | null;
  simulated: boolean;
};

export interface DeliveryAttempt {
  method: string;
  state: string;
  providerMessageId: string | null;
  error: string | null;
  dateCreated: string;
}

export type MessageDetail = LoggedMessage & { attempts: DeliveryAttempt[] };

export interface MessageList {
  total: number;
  count: number;
  offset: number;
  messages: LoggedMessage[];
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
