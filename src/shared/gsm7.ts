/**
 * The GSM 03.38 default alphabet and the SMS segment limits: the one definition that the
 * console's counter, the server's pricing (src/shared/sms.ts) and the SMPP encoder and splitter
 * (src/server/delivery) all read, so what is priced is what is sent.
 */

/** Basic table by code 0x00–0x7F; 0x1B is the escape to the extension table. */
export const GSM7_BASIC_TABLE =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

export const GSM7_ESCAPE = 0x1b;

/** Extension-table characters by their code after the escape: each takes two septets. */
export const GSM7_EXTENSION_CODES: ReadonlyMap<string, number> = new Map([
  ['\f', 0x0a],
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
]);

/** Basic characters by code (the escape is not a character). */
export const GSM7_BASIC_CODES: ReadonlyMap<string, number> = new Map(
  Array.from(GSM7_BASIC_TABLE)
    .map((char, code): [string, number] => [char, code])
    .filter(([, code]) => code !== GSM7_ESCAPE),
);

/** Septets the character takes: 1 (basic), 2 (extension), or null when not GSM-7. */
export function gsm7Septets(char: string): 1 | 2 | null {
  if (GSM7_BASIC_CODES.has(char)) return 1;
  if (GSM7_EXTENSION_CODES.has(char)) return 2;
  return null;
}

/**
 * Units in one SMS (`single`) and in each part of a concatenated one (`multi`: the UDH takes
 * the rest): septets for GSM-7, UTF-16 code units for UCS-2.
 */
export const SEGMENT_LIMITS = {
  'GSM-7': { single: 160, multi: 153 },
  'UCS-2': { single: 70, multi: 67 },
} as const;
