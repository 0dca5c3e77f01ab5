import { describe, expect, it } from 'vitest';
import { nameText, text } from './schemas/common.ts';
import { isPlainName, storableText } from './text.ts';

describe('isPlainName', () => {
  it('accepts names in any script, with accents, emoji and joiners', () => {
    for (const name of [
      'Ada',
      'José-María',
      'عائشة',
      '李小龙',
      'Zoë 👩🏽‍💻',
      "O'Brien",
    ]) {
      expect(isPlainName(name), name).toBe(true);
    }
  });

  it('refuses control characters and text-direction marks', () => {
    for (const name of [
      'a\u0000',
      'a\t',
      'a\n',
      'a\u007F',
      'a\u0085',
      'a\u061C',
      'a\u200E',
      'a\u200F',
      'a\u202A',
      'a\u202B',
      'a\u202C',
      'a\u202D',
      'a\u202E',
      'a\u2066',
      'a\u2067',
      'a\u2068',
      'a\u2069',
    ]) {
      expect(isPlainName(name), JSON.stringify(name)).toBe(false);
    }
  });
});

describe('text and nameText', () => {
  it('refuse text that is not well-formed Unicode, naming the field once', () => {
    for (const value of [
      '\uD800\uD800',
      'a\uDC00',
      '\uDE00\uD83D',
      'a\uD83D',
    ]) {
      const result = text('Body')
        .min(1, 'Body cannot be empty')
        .safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([
        'Body must be valid Unicode text',
      ]);
    }
    expect(text('Body').parse('😀 ok')).toBe('😀 ok');
  });

  it('nameText also refuses disguising characters', () => {
    const schema = nameText('Name').trim().min(1, 'Name is required');
    expect(schema.safeParse('Shop\u202E').error?.issues[0]?.message).toBe(
      'Name must not contain control or text-direction characters',
    );
    expect(schema.safeParse('\uD800').error?.issues[0]?.message).toBe(
      'Name must be valid Unicode text',
    );
    expect(schema.parse('  Shop  ')).toBe('Shop');
  });
});

describe('storableText', () => {
  it('removes NUL and other control characters but keeps tabs and new lines', () => {
    expect(storableText('a\u0000b\u0007c\td\ne\u009f', 100)).toBe('abc\td\ne');
  });

  it('replaces a lone surrogate, high or low, with U+FFFD', () => {
    expect(storableText('x\uD83Dy', 10)).toBe('x\uFFFDy');
    expect(storableText('x\uDE00y', 10)).toBe('x\uFFFDy');
    expect(storableText('ok \uD83D\uDE00', 10)).toBe('ok \uD83D\uDE00');
  });

  it('cuts at the limit without splitting a character in two', () => {
    const text = `${'a'.repeat(199)}\uD83D\uDE00tail`;
    const cut = storableText(text, 200);
    expect(cut).toBe('a'.repeat(199));
    expect(storableText('abcdef', 3)).toBe('abc');
  });
});
