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
