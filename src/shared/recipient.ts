import { RECIPIENT_MAX_DIGITS, RECIPIENT_MIN_DIGITS } from './limits.ts';

/** Removes plus signs, dots, dashes and whitespace, as the spec asks before sending. */
export function cleanRecipient(recipient: string): string {
  return recipient.replace(/[+.\-\s]/g, '');
}

export function isValidRecipient(cleaned: string): boolean {
  return new RegExp(
    `^\\d{${RECIPIENT_MIN_DIGITS},${RECIPIENT_MAX_DIGITS}}$`,
  ).test(cleaned);
}
