import { RECIPIENT_MAX_DIGITS, RECIPIENT_MIN_DIGITS } from './limits.ts';

/** Removes plus signs, dots, dashes and whitespace, as the spec asks before sending. */
export function cleanRecipient(recipient: string): string {
  return recipient.replace(/[+.\-\s]/g, '');
}

// Built once: a batch checks up to 10,000 recipients, and building it per call cost more than
// the checks.
const VALID_RECIPIENT = new RegExp(
  `^\\d{${RECIPIENT_MIN_DIGITS},${RECIPIENT_MAX_DIGITS}}$`,
);

export function isValidRecipient(cleaned: string): boolean {
  return VALID_RECIPIENT.test(cleaned);
}
