/** The status callback's JSON body (CONTRACT.md, "Status callbacks"). */
import { deliveryErrorFields } from '../../../shared/delivery-errors.ts';
import type { DeliveryMethod } from '../types.ts';

export type CallbackState =
  | 'SCHEDULED'
  | 'ACCEPTED'
  | 'SUBMITTED'
  | 'DELIVERED'
  | 'UNDELIVERED'
  | 'EXPIRED'
  | 'REJECTED'
  | 'FAILED'
  | 'CANCELED';

export interface CallbackMessage {
  messageId: string;
  clientId: string;
  reference: string | null;
  state: CallbackState;
  deliveryMethod: DeliveryMethod | null;
  error: string | null;
  /** When the message entered this state. */
  dateUpdated: Date | string;
  /** The message went to the built-in simulator: nothing was sent to a phone. */
  simulated: boolean;
}

/**
 * The raw body to sign and send: the contract's fields in a fixed order (`simulated` last, as
 * CONTRACT.md "The simulator is never silent" added it), dateUpdated as ISO
 * 8601 UTC. Built once per state change and stored, so every retry sends (and signs) the same
 * bytes.
 */
export function callbackBody(message: CallbackMessage): string {
  const date =
    message.dateUpdated instanceof Date
      ? message.dateUpdated
      : new Date(message.dateUpdated);
  if (Number.isNaN(date.getTime())) {
    throw new Error(`invalid dateUpdated: ${String(message.dateUpdated)}`);
  }
  return JSON.stringify({
    messageId: message.messageId,
    clientId: message.clientId,
    reference: message.reference ?? null,
    state: message.state,
    deliveryMethod: message.deliveryMethod ?? null,
    error: message.error ?? null,
    // Normalised across providers, with the provider's own code (webhooks.messageStatus).
    ...deliveryErrorFields(
      message.deliveryMethod ?? null,
      message.state,
      message.error ?? null,
    ),
    dateUpdated: date.toISOString(),
    simulated: message.simulated,
  });
}

/** An inbound message as its callback tells it (CONTRACT.md, "Inbound callbacks"). */
export interface InboundCallbackMessage {
  messageId: string;
  clientId: string;
  from: string;
  to: string;
  body: string;
  keyword: 'STOP' | 'START' | 'HELP' | null;
  /** When it was stored (a concatenated one: when its last part arrived). */
  dateReceived: Date | string;
}

/**
 * The raw body of an inbound callback: `type` first, so a receiver that shares one URL between
 * both kinds can tell them apart (a status event has no `type`), then the contract's fields in
 * its order, dateReceived as ISO 8601 UTC. A pure function of the queued event: every retry
 * sends (and signs) the same bytes.
 */
export function inboundCallbackBody(message: InboundCallbackMessage): string {
  const date =
    message.dateReceived instanceof Date
      ? message.dateReceived
      : new Date(message.dateReceived);
  if (Number.isNaN(date.getTime())) {
    throw new Error(`invalid dateReceived: ${String(message.dateReceived)}`);
  }
  return JSON.stringify({
    type: 'inbound',
    messageId: message.messageId,
    clientId: message.clientId,
    from: message.from,
    to: message.to,
    body: message.body,
    keyword: message.keyword ?? null,
    dateReceived: date.toISOString(),
  });
}
