import type { DeliveryMethod } from '../../shared/limits.ts';

/** How an inbound text was coded by the provider: SMPP data_coding 0, 3, 8; Vonage text/unicode. */
export type InboundEncoding = 'GSM-7' | 'Latin-1' | 'UCS-2';

/**
 * One inbound SMS, or one part of a concatenated one, as a provider handed it over (CONTRACT
 * "Two-way messaging": Inbound from each method), already decoded to text. Every method's
 * receiver (the SMPP bind's deliver_sm, Vonage's and the gateway's inbound webhooks) makes these
 * and hands them to the one inbound writer (InboundSink), which routes them to the client
 * holding `to`, stores a message once per (method, providerMessageId), joins parts and decides
 * the keyword.
 */
export interface InboundPart {
  method: DeliveryMethod;
  /** The provider's id of this message or part; null when it gives none. */
  providerMessageId: string | null;
  /** The sender's digits (no `+`). */
  from: string;
  /** Our number's digits: who holds it receives the message. */
  to: string;
  /** This part's text. */
  body: string;
  encoding: InboundEncoding;
  /** Set on a part of a concatenated message: its reference, how many parts, which one (1-based). */
  concat: { reference: number; total: number; part: number } | null;
}

/**
 * The one inbound writer. Resolves once the part is stored (or known to be a duplicate, or
 * unrouted and counted): only then may the provider be acknowledged. Rejects when it could not
 * be stored, so the provider delivers it again.
 */
export interface InboundSink {
  receive(part: InboundPart): Promise<void>;
}

export type InboundHandler = (part: InboundPart) => Promise<void>;
