/**
 * GSM 03.38 default alphabet, as SMPP data_coding 0 carries it: one septet per octet (SMPP
 * does not pack septets), extension-table characters as 0x1B followed by their code.
 * The alphabet itself is src/shared/gsm7.ts, which the shared counter prices with.
 */

import {
  GSM7_BASIC_CODES as BASIC_CODES,
  GSM7_BASIC_TABLE as BASIC_TABLE,
  GSM7_ESCAPE as ESCAPE,
  GSM7_EXTENSION_CODES as EXTENSION_CODES,
  gsm7Septets,
} from '../../shared/gsm7.ts';

export { ESCAPE, gsm7Septets };

const EXTENSION_CHARS: ReadonlyMap<number, string> = new Map(
  Array.from(EXTENSION_CODES, ([char, code]): [number, string] => [code, char]),
);

/** Every character of the GSM-7 alphabet (basic and extension), for tests and checks. */
export const GSM7_CHARACTERS: readonly string[] = [
  ...BASIC_CODES.keys(),
  ...EXTENSION_CODES.keys(),
];

export function isGsm7(text: string): boolean {
  for (const char of text) if (gsm7Septets(char) === null) return false;
  return true;
}

/**
 * One octet per septet. A character outside the alphabet throws, or becomes `replacement`
 * when one is given.
 */
export function encodeGsm7(text: string, replacement?: number): Buffer {
  const octets: number[] = [];
  for (const char of text) {
    const basic = BASIC_CODES.get(char);
    if (basic !== undefined) {
      octets.push(basic);
      continue;
    }
    const extension = EXTENSION_CODES.get(char);
    if (extension === undefined) {
      if (replacement !== undefined) {
        octets.push(replacement);
        continue;
      }
      throw new Error(
        `not in the GSM 03.38 alphabet: U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`,
      );
    }
    octets.push(ESCAPE, extension);
  }
  return Buffer.from(octets);
}

/**
 * Octets (one septet each) → text. An escape before a code with no extension character reads
 * as the basic character (what 03.38 asks of a receiver); a trailing escape reads as a space.
 */
export function decodeGsm7(octets: Uint8Array): string {
  let text = '';
  for (let i = 0; i < octets.length; i++) {
    const code = octets[i]! & 0x7f;
    if (code === ESCAPE) {
      const next = octets[i + 1];
      if (next === undefined) {
        text += ' ';
        continue;
      }
      i++;
      text += EXTENSION_CHARS.get(next & 0x7f) ?? BASIC_TABLE[next & 0x7f];
      continue;
    }
    text += BASIC_TABLE[code];
  }
  return text;
}

/** UCS-2 big-endian as SMSCs take it: UTF-16 code units, so an emoji is its surrogate pair. */
export function encodeUcs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

export function decodeUcs2(octets: Uint8Array): string {
  const copy = Buffer.from(octets.subarray(0, octets.length & ~1));
  return copy.swap16().toString('utf16le');
}
