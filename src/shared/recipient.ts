import { RECIPIENT_MAX_DIGITS, RECIPIENT_MIN_DIGITS } from './limits.ts';

/**
 * The recipient's digits, normalised once for console and server alike (CONTRACT "Recipient
 * digits"): plus signs, dots, dashes and whitespace removed, then a leading `00` (the
 * international prefix) dropped, so `+00 44 7911 123456` and `0044 7911 123456` are
 * `447911123456`. Pricing, permissions, duplicates, the stored message and the provider all see
 * this form: a `00` kept would match no price prefix and no blocked destination.
 */
export function cleanRecipient(recipient: string): string {
  return recipient.replace(/[+.\-\s]/g, '').replace(/^00/, '');
}

// Built once: a batch checks up to 10,000 recipients, and building it per call cost more than
// the checks.
const VALID_RECIPIENT = new RegExp(
  `^[1-9]\\d{${RECIPIENT_MIN_DIGITS - 1},${RECIPIENT_MAX_DIGITS - 1}}$`,
);
const DIGITS = new RegExp(
  `^\\d{${RECIPIENT_MIN_DIGITS},${RECIPIENT_MAX_DIGITS}}$`,
);

/** 6 to 15 digits, the first not 0 (a national number has no country code to price it by). */
export function isValidRecipient(cleaned: string): boolean {
  return VALID_RECIPIENT.test(cleaned);
}

/** Cleaned digits of the right length that still begin with 0: a national number. */
export function isNationalNumber(cleaned: string): boolean {
  return cleaned.startsWith('0') && DIGITS.test(cleaned);
}

/** The refusal of a national number (the single send, the quote, the console). */
export const NATIONAL_NUMBER_MESSAGE =
  'Recipient is a national number (it begins with 0): give it with its country code';

/** The OpenAPI pattern of a recipient as typed: an optional `00`, then a non-zero digit. */
const SEP = '[+.\\-\\s]*';
export const RECIPIENT_PATTERN = `^${SEP}(0${SEP}0${SEP})?[1-9]${SEP}(\\d${SEP}){${RECIPIENT_MIN_DIGITS - 1},${RECIPIENT_MAX_DIGITS - 1}}$`;
