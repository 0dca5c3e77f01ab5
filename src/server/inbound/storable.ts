/**
 * What an inbound part may hand to the database (the one inbound writer, record_inbound). Parts
 * come from anyone who can reach a webhook or from an SMSC, and they share a group-committed
 * write with other customers' messages: a value PostgreSQL cannot store (a NUL, a lone
 * surrogate) is cleaned here, and what cannot be one SMS of ours (a 10 KB text, a part number
 * beyond its total, a `to` that is no number) is refused with the reason. The webhooks answer
 * that reason as a 400; the SMPP bind acknowledges and drops it (delivering it again would not
 * make it storable).
 */
import { DELIVERY_METHODS } from '../../shared/limits.ts';
import { storableText } from '../../shared/text.ts';
import { providerId } from '../delivery/provider-text.ts';
import type { InboundEncoding, InboundPart } from './types.ts';

/**
 * Longest text of one part taken, in UTF-16 code units: ten SMS of 160 characters. A part is
 * one SMS (at most 160 GSM-7 characters); SMPP's message_payload may carry a longer one, but
 * not a book: a longer text is refused rather than cut, so nothing is stored that the sender
 * did not send.
 */
export const MAX_INBOUND_PART_TEXT = 1600;
/** Longest sender kept: an international number has 15 digits, an alphanumeric sender 11. */
export const MAX_INBOUND_SENDER = 20;
/** Parts of one concatenated message: the UDH and sar_* fields count them in one octet. */
export const MAX_INBOUND_PARTS = 255;
/** A concatenation reference is 8 bits (UDH IEI 0x00) or 16 bits (IEI 0x08, sar_msg_ref_num). */
export const MAX_INBOUND_REFERENCE = 0xffff;

const ENCODINGS: readonly InboundEncoding[] = ['GSM-7', 'Latin-1', 'UCS-2'];
const NUMBER = /^[0-9]{3,15}$/;
/** A sender that is not a number: letters, digits and the punctuation senders use. */
const ALPHANUMERIC_SENDER = /^[\p{L}\p{N} .&'_-]+$/u;

export type StorableInbound = { part: InboundPart } | { problem: string };

/** A number as digits: spaces and one leading `+` dropped. */
function digitsOf(raw: string): string {
  return raw.replace(/\s+/g, '').replace(/^\+/, '');
}

function concatProblem(
  concat: NonNullable<InboundPart['concat']>,
): string | null {
  const { reference, total, part } = concat;
  if (
    !Number.isInteger(reference) ||
    reference < 0 ||
    reference > MAX_INBOUND_REFERENCE
  ) {
    return `concatenation reference must be an integer from 0 to ${MAX_INBOUND_REFERENCE}`;
  }
  if (!Number.isInteger(total) || total < 1 || total > MAX_INBOUND_PARTS) {
    return `concatenation total must be an integer from 1 to ${MAX_INBOUND_PARTS}`;
  }
  if (!Number.isInteger(part) || part < 1 || part > total) {
    return `part number must be an integer from 1 to the total (${total})`;
  }
  return null;
}

/**
 * The part as the writer stores it, or why it cannot be stored. `from` loses a leading `+` (a
 * number's digits, or an alphanumeric sender as it is), `to` must be a number of 3 to 15
 * digits, the provider's id and the text are made storable (providerId, storableText: control
 * characters but TAB and LF removed, lone surrogates replaced), a "concatenated" message of one
 * part is a whole message.
 */
export function storableInbound(part: InboundPart): StorableInbound {
  if (!DELIVERY_METHODS.includes(part.method)) {
    return {
      problem: `unknown delivery method ${JSON.stringify(part.method)}`,
    };
  }
  if (!ENCODINGS.includes(part.encoding)) {
    return { problem: `unknown encoding ${JSON.stringify(part.encoding)}` };
  }
  const to = digitsOf(part.to);
  if (!NUMBER.test(to))
    return { problem: 'to must be a number of 3 to 15 digits' };
  const sender = storableText(part.from.trim(), part.from.length);
  const from = /^\+?[0-9 ]+$/.test(sender) ? digitsOf(sender) : sender;
  if (from === '') return { problem: 'from is missing' };
  if (
    from.length > MAX_INBOUND_SENDER ||
    !(/^[0-9]+$/.test(from) || ALPHANUMERIC_SENDER.test(from))
  ) {
    return {
      problem: `from must be a number or an alphanumeric sender of at most ${MAX_INBOUND_SENDER} characters`,
    };
  }
  if (part.body.length > MAX_INBOUND_PART_TEXT) {
    return {
      problem: `text is longer than ${MAX_INBOUND_PART_TEXT} characters`,
    };
  }
  let concat = part.concat;
  if (concat) {
    const problem = concatProblem(concat);
    if (problem) return { problem };
    if (concat.total === 1) concat = null;
  }
  const id =
    part.providerMessageId === null ? '' : providerId(part.providerMessageId);
  return {
    part: {
      method: part.method,
      providerMessageId: id === '' ? null : id,
      from,
      to,
      body: storableText(part.body, MAX_INBOUND_PART_TEXT),
      encoding: part.encoding,
      concat: concat && {
        reference: concat.reference,
        total: concat.total,
        part: concat.part,
      },
    },
  };
}
