import { describe, expect, it } from 'vitest';
import { countSms } from '../../shared/sms.ts';
import { decodeGsm7, decodeUcs2 } from './gsm7.ts';
import { encodeSms, splitText } from './sms-parts.ts';

describe('splitText', () => {
  it('keeps up to 160 septets / 70 units in one part', () => {
    expect(splitText('a'.repeat(160), 'GSM-7')).toEqual(['a'.repeat(160)]);
    expect(splitText('{'.repeat(80), 'GSM-7')).toHaveLength(1);
    expect(splitText('ж'.repeat(70), 'UCS-2')).toHaveLength(1);
    expect(splitText('', 'GSM-7')).toEqual(['']);
  });

  it('cuts longer texts into 153 septets / 67 units', () => {
    const parts = splitText('a'.repeat(161), 'GSM-7');
    expect(parts.map((p) => p.length)).toEqual([153, 8]);
    expect(splitText('ж'.repeat(135), 'UCS-2').map((p) => p.length)).toEqual([
      67, 67, 1,
    ]);
  });

  it('never splits an escape pair', () => {
    // 152 septets then '€' (2): it does not fit in part 1 and starts part 2
    const text = 'a'.repeat(152) + '€' + 'b'.repeat(10);
    const parts = splitText(text, 'GSM-7');
    expect(parts).toEqual(['a'.repeat(152), '€' + 'b'.repeat(10)]);
  });

  it('never splits a surrogate pair', () => {
    const text = 'x'.repeat(66) + '😀' + 'y'.repeat(10);
    const parts = splitText(text, 'UCS-2');
    expect(parts).toEqual(['x'.repeat(66), '😀' + 'y'.repeat(10)]);
  });

  it('refuses a GSM-7 split of a non GSM-7 text', () => {
    expect(() => splitText('héllo ç', 'GSM-7')).toThrow(
      'text is not GSM-7: U+00E7',
    );
  });

  it('gives as many parts as the shared counter prices', () => {
    const alphabet = ['a', '€', '{', ' ', 'é', 'ж', '😀', '\n'];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 300; round++) {
      const length = 1 + Math.floor(random() * 400);
      const pool = round % 2 ? alphabet.slice(0, 4) : alphabet;
      let text = '';
      for (let i = 0; i < length; i++) {
        text += pool[Math.floor(random() * pool.length)];
      }
      const count = countSms(text);
      const parts = splitText(text, count.encoding);
      expect(parts.length, text).toBe(count.segments);
      expect(parts.join('')).toBe(text);
    }
  });
});

describe('encodeSms', () => {
  it('sends a short GSM-7 text as one data_coding 0 part without UDH', () => {
    const sms = encodeSms('Hello [world]', 'GSM-7', 9);
    expect(sms.dataCoding).toBe(0);
    expect(sms.esmClass).toBe(0);
    expect(sms.shortMessages).toHaveLength(1);
    expect(decodeGsm7(sms.shortMessages[0]!)).toBe('Hello [world]');
  });

  it('sends UCS-2 as data_coding 8', () => {
    const sms = encodeSms('Hi 😀', 'UCS-2', 1);
    expect(sms.dataCoding).toBe(8);
    expect(sms.shortMessages[0]!.length).toBe(10);
  });

  it('numbers long parts 1/n … n/n with one reference and esm_class 0x40', () => {
    const text = 'z'.repeat(153 * 2 + 5);
    const sms = encodeSms(text, 'GSM-7', 0x1a3);
    expect(sms.esmClass).toBe(0x40);
    expect(sms.shortMessages).toHaveLength(3);
    sms.shortMessages.forEach((payload, i) => {
      expect([...payload.subarray(0, 6)]).toEqual([5, 0, 3, 0xa3, 3, i + 1]);
      expect(payload.length).toBeLessThanOrEqual(6 + 153);
    });
    const joined = sms.shortMessages
      .map((p) => decodeGsm7(p.subarray(6)))
      .join('');
    expect(joined).toBe(text);

    const ucs = encodeSms('ж'.repeat(100), 'UCS-2', 4);
    expect(ucs.shortMessages.map((p) => p.length)).toEqual([6 + 134, 6 + 66]);
    expect(
      ucs.shortMessages.map((p) => decodeUcs2(p.subarray(6))).join(''),
    ).toBe('ж'.repeat(100));
  });
});
