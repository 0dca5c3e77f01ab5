/**
 * What a delivery connector (SMPP bind, Vonage, generic HTTP gateway) offers the durable queue.
 * Connectors never touch the database: they submit, and the SMPP bind and the simulator report
 * receipts to one handler.
 */

import type { DeliveryMethod } from '../../shared/limits.ts';
import type { SmsEncoding } from '../../shared/sms.ts';

export type { DeliveryMethod };

/** 'GSM-7' | 'UCS-2', as the shared counter decides it. */
export type Encoding = SmsEncoding;

export interface OutgoingSms {
  /** Our message id (kept for logs; SMPP has no place for it on the wire). */
  messageId: string;
  /** Alphanumeric sender (at most 11 characters) or a number, with or without '+'. */
  from: string;
  /** Destination number, international, with or without '+'. */
  to: string;
  text: string;
  /** As counted by src/shared/sms.ts countSms: it decides the split and the price. */
  encoding: Encoding;
}

export type SubmitOutcome =
  /** One provider id per part, in part order. */
  | { kind: 'submitted'; providerMessageIds: string[] }
  /** Transient: try again later, fail over once retries are exhausted. */
  | { kind: 'retry'; error: string }
  /** Permanent: fail over now. */
  | { kind: 'refused'; error: string }
  /**
   * The method cannot be reached (SMPP bind down) and nothing was handed to the provider: not a
   * try. The message waits for it (within its validity), failing over only after a long outage.
   */
  | { kind: 'unavailable'; error: string }
  /**
   * Our own flow control (window, submits-per-second cap, throttling pause) held the message
   * longer than a job may wait, and nothing was sent: not a try either; queued again shortly.
   */
  | { kind: 'busy'; error: string };

export type FinalState = 'DELIVERED' | 'UNDELIVERED' | 'EXPIRED' | 'REJECTED';

export interface Receipt {
  providerMessageId: string;
  state: FinalState;
  /** null when delivered; otherwise the provider's status and error code, e.g. 'UNDELIV err:034'. */
  error: string | null;
  /**
   * Set when no credential vouches for the receipt: an unsigned Vonage receipt (the webhook is
   * public when VONAGE_SIGNATURE_SECRET is unset). It may then decide only the message it names
   * as `clientRef` (the message id we sent as Vonage's client-ref), never another one, also
   * when it arrives before the submit that claims its id (migration 008). Absent: the source
   * is authenticated (the SMPP bind, the gateway's bearer token, a Vonage signature).
   */
  unauthenticated?: { clientRef: string };
}

export type ReceiptHandler = (receipt: Receipt) => Promise<void>;

export interface Connector {
  readonly method: DeliveryMethod;
  /** Never rejects: every failure is an outcome. */
  submit(sms: OutgoingSms): Promise<SubmitOutcome>;
  /**
   * For a connector whose receipts come over its own connection (the SMPP bind) or from itself
   * (the simulator); the HTTP providers' receipts arrive at the webhook routes, which hand them
   * to the ReceiptInbox. One handler (a later call replaces it). Awaited before the receipt is
   * acknowledged to the provider, so a receipt is only acknowledged once stored. A receipt may
   * reach the handler BEFORE the submit() that produced its id has resolved (SMSCs send both in
   * one TCP read): the handler must keep receipts for ids it does not know yet.
   */
  onReceipt?(handler: ReceiptHandler): void;
  /** Pending submits resolve as 'retry'; resolves once the connection is closed. */
  close(): Promise<void>;
  /** A connector that holds a connection of its own (the SMPP bind): whether it is up now. */
  isUp?(): boolean;
}

/** A connector that reports receipts itself: the SMPP bind, the simulator. */
export interface ReceivingConnector extends Connector {
  onReceipt(handler: ReceiptHandler): void;
}

/**
 * What the engine tells as it works (metrics): all optional, none by default. Counts are this
 * node's own: several nodes each report what they did.
 */
export interface DeliveryObserver {
  /** `count` messages moved by this node into `state` (SUBMITTED, FAILED, a receipt's final state). */
  messages?(state: string, count: number): void;
  /** One submit to a provider, from the call to the provider's answer. */
  submitted?(method: DeliveryMethod, seconds: number): void;
  /** One status callback POST: answered 2xx or not. */
  callback?(outcome: 'ok' | 'failed'): void;
  /** Numbers opted out of a client's messages: by a STOP (keyword) or through the API. */
  optOuts?(source: 'keyword' | 'api', count: number): void;
}

/** The subset of pino's logger the connectors use (Fastify's app.log fits). */
export interface DeliveryLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
