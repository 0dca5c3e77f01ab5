/**
 * Control characters (Unicode Cc: C0, DEL, C1) and the bidirectional marks, embeddings,
 * overrides and isolates (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069): shown in a
 * name they hide characters or reverse the order in which the rest is read.
 */
const DISGUISING = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** True when a name shows as what it is: no control or text-direction characters. */
export function isPlainName(value: string): boolean {
  return !DISGUISING.test(value);
}

/** A UTF-16 surrogate with no partner: PostgreSQL cannot store it in text or jsonb. */
const LONE_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Control characters but TAB and LF (NUL above all: PostgreSQL's text refuses it). */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const UNSTORABLE_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * Text from outside (a provider's answer, a webhook's field) made fit to store and show: control
 * characters removed, a lone surrogate replaced by U+FFFD, cut to at most `max` code units
 * without splitting a character in two (a cut pair would leave a lone surrogate again).
 */
export function storableText(value: string, max: number): string {
  let text = value
    .replace(UNSTORABLE_CONTROL, '')
    .replace(LONE_SURROGATE, '\uFFFD');
  if (text.length > max) {
    const cut = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
    text = text.slice(0, cut);
  }
  return text;
}
