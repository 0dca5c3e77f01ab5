import { describe, expect, it } from 'vitest';
import {
  RECEIPT_ID_MAX,
  receiptIdProblem,
  strictFormFields,
} from './receipt-fields.ts';

describe('receipt ids', () => {
  it('takes printable ids up to 100 characters', () => {
    for (const id of [
      '0C00000000000001',
      'gw-42/Ä',
      'x'.repeat(RECEIPT_ID_MAX),
    ]) {
      expect(receiptIdProblem('id', id)).toBeNull();
    }
  });

  it('refuses empty, long, control, format, space and lone surrogate ids', () => {
    expect(receiptIdProblem('id', '')).toBe('id is missing');
    expect(receiptIdProblem('id', 'x'.repeat(RECEIPT_ID_MAX + 1))).toMatch(
      /longer than 100/,
    );
    for (const id of [
      'A\u0000B',
      'A\u007fB',
      'A\u200eB',
      'A B',
      '\ud800',
      'a\udc00',
    ]) {
      expect(receiptIdProblem('id', id), JSON.stringify(id)).toMatch(
        /must be printable/,
      );
    }
  });
});

describe('strictFormFields', () => {
  it('decodes a form or query string as URLSearchParams does', () => {
    expect(strictFormFields('a=1&b=x+y&c=%C3%A4&&d')).toEqual({
      a: '1',
      b: 'x y',
      c: 'ä',
      d: '',
    });
  });

  it('refuses escapes that are not UTF-8 (a lone surrogate, a stray byte)', () => {
    expect(strictFormFields('messageId=A%ED%A0%80B')).toBeNull();
    expect(strictFormFields('messageId=A%FFB')).toBeNull();
    expect(strictFormFields('messageId=A%2')).toBeNull();
  });

  it('keeps __proto__ as a field, not as the prototype', () => {
    const fields = strictFormFields('__proto__=x')!;
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.keys(fields)).toEqual(['__proto__']);
  });
});
