/**
 * Splitting a text into SMS parts exactly as src/shared/sms.ts counts (and so prices) them:
 * one part up to 160 septets / 70 UTF-16 units; beyond, parts of 153 septets / 67 units, a
 * character that does not fit whole (an escape pair, a surrogate pair) starting the next part.
 */
import { encodeGsm7, encodeUcs2, gsm7Septets } from './gsm7.ts';
import type { Encoding } from './types.ts';
import { SEGMENT_LIMITS } from '../../shared/gsm7.ts';

const LIMITS = SEGMENT_LIMITS;

/** Units a character takes in the encoding; throws when GSM-7 cannot carry it. */
function unitsOf(char: string, encoding: Encoding): number {
  if (encoding === 'UCS-2') return char.length;
  const septets = gsm7Septets(char);
  if (septets === null) {
    throw new Error(
      `text is not GSM-7: U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`,
    );
  }
  return septets;
}

/** The text of each part, in order. An empty text is one empty part. */
export function splitText(text: string, encoding: Encoding): string[] {
  const chars = Array.from(text);
  const sizes = chars.map((c) => unitsOf(c, encoding));
  const total = sizes.reduce((sum, n) => sum + n, 0);
  const { single, multi } = LIMITS[encoding];
  if (total <= single) return [text];
  const parts: string[] = [];
  let current = '';
  let used = 0;
  chars.forEach((char, i) => {
    const size = sizes[i]!;
    if (used + size > multi) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += size;
  });
  parts.push(current);
  return parts;
}

export const DATA_CODING: Record<Encoding, number> = {
  'GSM-7': 0x00,
  'UCS-2': 0x08,
};

/** esm_class bit saying short_message starts with a user data header. */
export const ESM_CLASS_UDHI = 0x40;

/** Concatenation header with an 8-bit reference: IEI 0x00, length 3, ref, total, number. */
export function concatenationUdh(
  reference: number,
  total: number,
  number: number,
): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, reference & 0xff, total, number]);
}

export interface EncodedSms {
  dataCoding: number;
  esmClass: number;
  /** short_message of each submit_sm, UDH included when there are several parts. */
  shortMessages: Buffer[];
}

/**
 * The submit_sm payloads of a text. `reference` (0–255) ties the parts together on the handset;
 * it only matters when there are several parts.
 */
export function encodeSms(
  text: string,
  encoding: Encoding,
  reference: number,
): EncodedSms {
  const encode = encoding === 'GSM-7' ? encodeGsm7 : encodeUcs2;
  const parts = splitText(text, encoding);
  if (parts.length > 255) {
    throw new Error(`text needs ${parts.length} parts, at most 255 fit`);
  }
  if (parts.length === 1) {
    return {
      dataCoding: DATA_CODING[encoding],
      esmClass: 0,
      shortMessages: [encode(text)],
    };
  }
  return {
    dataCoding: DATA_CODING[encoding],
    esmClass: ESM_CLASS_UDHI,
    shortMessages: parts.map((part, i) =>
      Buffer.concat([
        concatenationUdh(reference, parts.length, i + 1),
        encode(part),
      ]),
    ),
  };
}
