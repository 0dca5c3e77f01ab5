/**
 * What a provider tells us is stored: its message ids key `message_parts` (a btree index, which
 * refuses a key over about 2.7 KB) and its error texts end up in `message_attempts`. PostgreSQL
 * refuses a NUL or a lone surrogate in either. Everything a connector reports passes here, so
 * one hostile or broken answer cannot make a write fail.
 */
import { createHash } from 'node:crypto';
import { storableText } from '../../shared/text.ts';
import type { Receipt, SubmitOutcome } from './types.ts';

/** Longest provider message id kept as it is (SMPP allows 64 characters, HTTP providers less). */
export const MAX_PROVIDER_ID = 100;
/** Longest provider error text kept. */
export const MAX_PROVIDER_ERROR = 500;

/**
 * A provider message id fit to store: control characters removed, lone surrogates replaced;
 * one over MAX_PROVIDER_ID characters (a protocol violation, but the provider took the message:
 * refusing it now would send it twice) becomes its first 67 characters, '~' and 32 hex digits
 * of its SHA-256. The same function applied to the submit's answer and to the receipt gives the
 * same key, so the receipt still finds its message.
 */
export function providerId(raw: string): string {
  const clean = storableText(raw.trim(), raw.length);
  if (clean.length <= MAX_PROVIDER_ID) return clean;
  const digest = createHash('sha256').update(clean).digest('hex').slice(0, 32);
  return `${storableText(clean, MAX_PROVIDER_ID - 33)}~${digest}`;
}

/** A provider's error text fit to store and show. */
export function providerError(raw: string): string {
  return storableText(raw, MAX_PROVIDER_ERROR);
}

/** A submit outcome with its ids and error fit to store. */
export function storableOutcome(outcome: SubmitOutcome): SubmitOutcome {
  if (outcome.kind === 'submitted') {
    return {
      kind: 'submitted',
      providerMessageIds: outcome.providerMessageIds.map(providerId),
    };
  }
  return { ...outcome, error: providerError(outcome.error) };
}

/** A receipt with its id and error fit to store. */
export function storableReceipt(receipt: Receipt): Receipt {
  return {
    // Every other field (an unsigned receipt's clientRef above all) stays as it came.
    ...receipt,
    providerMessageId: providerId(receipt.providerMessageId),
    error: receipt.error === null ? null : providerError(receipt.error),
  };
}
