/**
 * Rules for what the providers' webhooks may hand to the database. Anyone can call a webhook,
 * and every receipt goes into the group-committed batch that also records other customers'
 * submits: one value PostgreSQL cannot store (a NUL, a lone surrogate) fails the whole batch.
 * So ids are checked at the edge (400), and free texts are cleaned and cut.
 */

/**
 * Longest provider message id (or Vonage client-ref) taken. Vonage's ids are 16 hex digits and
 * its client-ref at most 100 characters; ids of SMSCs and gateways are shorter still. The cap
 * also bounds what a receipt for an id nobody claims can make the database keep for a week.
 */
export const RECEIPT_ID_MAX = 100;

/** Longest provider error text kept on an attempt (longer ones are cut). */
export const RECEIPT_ERROR_MAX = 200;

/**
 * Letters, marks, digits, punctuation and symbols only: no spaces, no control or format
 * characters (NUL, bidi marks), no lone surrogate (in a u-regex it is a code point of its own,
 * outside these classes), nothing private or unassigned.
 */
const PRINTABLE_ID = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]+$/u;

/**
 * Why `value` is not a provider id we store, or null when it is one. `name` is the field's name
 * as the provider sends it, for the 400 message.
 */
export function receiptIdProblem(name: string, value: string): string | null {
  if (value.length === 0) return `${name} is missing`;
  if (value.length > RECEIPT_ID_MAX) {
    return `${name} is longer than ${RECEIPT_ID_MAX} characters`;
  }
  if (!PRINTABLE_ID.test(value)) {
    return `${name} must be printable characters only (no spaces, control characters or broken Unicode)`;
  }
  return null;
}

/**
 * `application/x-www-form-urlencoded` text (a query string or a form body) → its fields, or
 * null when a percent-escape is not valid UTF-8. URLSearchParams would turn such an escape into
 * U+FFFD and Fastify's query parser leaves it undecoded: either way the receipt would not say
 * what the sender meant, so the webhook refuses it (400) rather than guess.
 */
export function strictFormFields(text: string): Record<string, string> | null {
  const fields: [string, string][] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const rawName = at < 0 ? pair : pair.slice(0, at);
    const rawValue = at < 0 ? '' : pair.slice(at + 1);
    try {
      fields.push([
        decodeURIComponent(rawName.replaceAll('+', ' ')),
        decodeURIComponent(rawValue.replaceAll('+', ' ')),
      ]);
    } catch {
      return null;
    }
  }
  // fromEntries defines each name as an own property, "__proto__" included.
  return Object.fromEntries(fields);
}
