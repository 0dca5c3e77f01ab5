import { describe, expect, it } from 'vitest';
import { countSms, countSmsByCharacters, isValidSender } from './sms.ts';

describe('countSms: GSM-7', () => {
  it('counts an empty body as no segment', () => {
    expect(countSms('')).toMatchObject({
      encoding: 'GSM-7',
      units: 0,
      segments: 0,
    });
  });

  it('keeps GSM-7 for every character of the basic table', () => {
    const basic =
      '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
      '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
    const count = countSms(basic);
    expect(count.encoding).toBe('GSM-7');
    expect(count.units).toBe(Array.from(basic).length);
    expect(count.nonGsmCharacters).toEqual([]);
  });

  it('fits 160 characters in one segment and needs two for 161', () => {
    expect(countSms('a'.repeat(160))).toMatchObject({
      segments: 1,
      remainingInSegment: 0,
    });
    expect(countSms('a'.repeat(161))).toMatchObject({
      segments: 2,
      units: 161,
      remainingInSegment: 153 * 2 - 161,
    });
  });

  it('uses 153 per concatenated segment: 306 fits two, 307 needs three', () => {
    expect(countSms('a'.repeat(306)).segments).toBe(2);
    expect(countSms('a'.repeat(307)).segments).toBe(3);
    expect(countSms('a'.repeat(1530)).segments).toBe(10);
    expect(countSms('a'.repeat(1531)).segments).toBe(11);
  });

  it('counts each extension character as two septets', () => {
    for (const char of ['^', '{', '}', '\\', '[', '~', ']', '|', '€', '\f']) {
      expect(countSms(char)).toMatchObject({ encoding: 'GSM-7', units: 2 });
    }
    expect(countSms('€'.repeat(80))).toMatchObject({
      units: 160,
      segments: 1,
    });
    expect(countSms('€'.repeat(80) + 'a')).toMatchObject({
      units: 161,
      segments: 2,
    });
    expect(countSms('a'.repeat(159) + '€').segments).toBe(2);
  });

  it('never splits an escape pair across the 153-septet boundary', () => {
    // 152 + 2 + 152 = 306 septets, but the euro sign cannot start in septet 153.
    const body = 'a'.repeat(152) + '€' + 'a'.repeat(152);
    const count = countSms(body);
    expect(count.units).toBe(306);
    expect(count.segments).toBe(3);
    // Ending exactly on the boundary is fine.
    expect(countSms('a'.repeat(151) + '€' + 'a'.repeat(153)).segments).toBe(2);
  });
});

describe('countSms: UCS-2', () => {
  it('switches the whole message to UCS-2 for one non-GSM character', () => {
    const count = countSms('Hello ç world');
    expect(count.encoding).toBe('UCS-2');
    expect(count.units).toBe(13);
    expect(count.nonGsmCharacters).toEqual(['ç']);
  });

  it('lists each character that forced UCS-2 once, in order', () => {
    expect(countSms('Привет, мир').nonGsmCharacters).toEqual([
      'П',
      'р',
      'и',
      'в',
      'е',
      'т',
      'м',
    ]);
  });

  it('fits 70 units in one segment and needs two for 71, then 67 each', () => {
    expect(countSms('ж'.repeat(70))).toMatchObject({
      encoding: 'UCS-2',
      segments: 1,
      remainingInSegment: 0,
    });
    expect(countSms('ж'.repeat(71)).segments).toBe(2);
    expect(countSms('ж'.repeat(134)).segments).toBe(2);
    expect(countSms('ж'.repeat(135)).segments).toBe(3);
  });

  it('counts extension characters as one unit once in UCS-2', () => {
    expect(countSms('ж€')).toMatchObject({ encoding: 'UCS-2', units: 2 });
  });

  it('counts an emoji as two units (a surrogate pair) and one character', () => {
    const count = countSms('hi 😀');
    expect(count.encoding).toBe('UCS-2');
    expect(count.units).toBe(5);
    expect(count.nonGsmCharacters).toEqual(['😀']);
    expect(countSms('😀'.repeat(35)).segments).toBe(1);
    expect(countSms('😀'.repeat(35) + 'a').segments).toBe(2);
  });

  it('never splits a surrogate pair across the 67-unit boundary', () => {
    // 66 + 2 + 66 = 134 units, but the emoji cannot start in unit 67.
    const body = 'ж'.repeat(66) + '😀' + 'ж'.repeat(66);
    expect(countSms(body)).toMatchObject({ units: 134, segments: 3 });
    expect(countSms('ж'.repeat(65) + '😀' + 'ж'.repeat(67)).segments).toBe(2);
  });
});

describe('isValidSender', () => {
  it('accepts up to 11 GSM characters, or a number of up to 15 digits', () => {
    for (const sender of [
      'Skyline',
      'ABCDEFGHIJK',
      'Café Ø-1.',
      '@£$¥',
      '1',
      '447700900123',
      '+447700900123',
      '123456789012345',
      '+123456789012345',
    ]) {
      expect(isValidSender(sender), sender).toBe(true);
    }
  });

  it('refuses what a handset cannot show or that hides characters', () => {
    for (const sender of [
      '',
      'ABCDEFGHIJKL',
      '1234567890123456',
      '+1234567890123456',
      'Sky\u202Eline',
      '\u2066Sky',
      'Sky\u200Bline',
      'Sky\u200Fline',
      'Sky\u00ADline',
      'Sky\nline',
      'Sky\rline',
      'Sky\u0000',
      'Sky😀',
      'Скайлайн',
      'Sky€',
      'Sky[1]',
      'Sky\uD800',
    ]) {
      expect(isValidSender(sender), JSON.stringify(sender)).toBe(false);
    }
  });
});

describe('countSms: the GSM-7 path', () => {
  it('counts as the count by code point does, for any mix of characters and length', () => {
    // Basic, extension (two septets), non-GSM (UCS-2), a surrogate pair and a lone surrogate.
    const pool = [
      'a',
      ' ',
      '\n',
      '@',
      'Ç',
      '{',
      '€',
      '\\',
      '~',
      'é',
      'ç',
      'ß',
      'Ω',
      'я',
      '😀',
      '\ud800',
    ];
    let seed = 22;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let run = 0; run < 3000; run++) {
      // Mostly GSM-7 bodies around the segment limits, some with one other character.
      const length = random(400);
      const gsmOnly = random(3) > 0;
      let body = '';
      while (body.length < length)
        body += pool[random(gsmOnly ? 10 : pool.length)];
      expect(countSms(body)).toEqual(countSmsByCharacters(body));
    }
  });

  it('ends a concatenated segment early rather than split an extension character', () => {
    // 152 septets, then '€' (2) starts part 2, which holds 151 more; part 3 holds 1 + '€'.
    const body = 'a'.repeat(152) + '€' + 'a'.repeat(152) + '€';
    expect(countSms(body)).toEqual(countSmsByCharacters(body));
    expect(countSms(body)).toMatchObject({
      encoding: 'GSM-7',
      units: 308,
      segments: 3,
      remainingInSegment: 150,
    });
  });
});
