import { describe, expect, it } from 'vitest';
import { countSms } from '../../shared/sms.ts';
import {
  GSM7_CHARACTERS,
  decodeGsm7,
  decodeUcs2,
  encodeGsm7,
  encodeUcs2,
  gsm7Septets,
  isGsm7,
} from './gsm7.ts';

describe('GSM 03.38 default alphabet', () => {
  it('encodes basic characters one octet each, at their 03.38 codes', () => {
    expect([...encodeGsm7('@£$¥')]).toEqual([0x00, 0x01, 0x02, 0x03]);
    expect([...encodeGsm7('Hi!')]).toEqual([0x48, 0x69, 0x21]);
    // The places where 03.38 differs from ASCII.
    expect([...encodeGsm7('_¤¡§¿ÄÖÑÜäöñüà')]).toEqual([
      0x11, 0x24, 0x40, 0x5f, 0x60, 0x5b, 0x5c, 0x5d, 0x5e, 0x7b, 0x7c, 0x7d,
      0x7e, 0x7f,
    ]);
    expect([...encodeGsm7('\n\rΔÆæßÉ')]).toEqual([
      0x0a, 0x0d, 0x10, 0x1c, 0x1d, 0x1e, 0x1f,
    ]);
  });

  it('escapes the extension table with 0x1B', () => {
    expect([...encodeGsm7('{}[]~^|\\€\f')]).toEqual([
      0x1b, 0x28, 0x1b, 0x29, 0x1b, 0x3c, 0x1b, 0x3e, 0x1b, 0x3d, 0x1b, 0x14,
      0x1b, 0x40, 0x1b, 0x2f, 0x1b, 0x65, 0x1b, 0x0a,
    ]);
    expect(gsm7Septets('€')).toBe(2);
    expect(gsm7Septets('a')).toBe(1);
  });

  it('refuses characters outside the alphabet', () => {
    expect(() => encodeGsm7('Olá')).toThrow('U+00E1');
    expect(() => encodeGsm7('ç')).toThrow(
      'not in the GSM 03.38 alphabet: U+00E7',
    );
    expect(() => encodeGsm7('\x1b')).toThrow('U+001B');
    expect(isGsm7('Ça va {ok}')).toBe(true);
    expect(isGsm7('ça va')).toBe(false);
  });

  it('decodes what it encodes, for every character', () => {
    const all = GSM7_CHARACTERS.join('');
    expect(decodeGsm7(encodeGsm7(all))).toBe(all);
    // an unknown extension code falls back to the basic character
    expect(decodeGsm7(Uint8Array.from([0x1b, 0x41]))).toBe('A');
  });

  it('is the alphabet the shared counter prices as GSM-7', () => {
    expect(GSM7_CHARACTERS).toHaveLength(127 + 10);
    for (const char of GSM7_CHARACTERS) {
      const count = countSms(char);
      expect(count.encoding, char).toBe('GSM-7');
      expect(count.units, char).toBe(gsm7Septets(char));
    }
    for (const char of ['ç', 'é'.normalize('NFD'), '😀', '\x1b', '`', 'ő']) {
      expect(isGsm7(char), char).toBe(countSms(char).encoding === 'GSM-7');
    }
  });
});

describe('UCS-2', () => {
  it('is big-endian UTF-16 with surrogate pairs intact', () => {
    expect([...encodeUcs2('Aé')]).toEqual([0x00, 0x41, 0x00, 0xe9]);
    expect([...encodeUcs2('😀')]).toEqual([0xd8, 0x3d, 0xde, 0x00]);
    expect(decodeUcs2(encodeUcs2('Привет 😀'))).toBe('Привет 😀');
  });
});
