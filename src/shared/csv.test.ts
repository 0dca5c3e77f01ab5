import { describe, expect, it } from 'vitest';
import { csvField } from './csv.ts';

describe('csvField', () => {
  it('quotes a field holding a comma, semicolon, TAB, quote or line break', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('a\tb')).toBe('"a\tb"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('plain')).toBe('plain');
  });

  it('keeps free text from running as a formula, and leaves numbers alone', () => {
    expect(csvField('=1+1', { text: true })).toBe("'=1+1");
    expect(csvField('@SUM(A1)', { text: true })).toBe("'@SUM(A1)");
    expect(csvField('\tx', { text: true })).toBe('"\'\tx"');
    expect(csvField('-0.05')).toBe('-0.05');
  });

  it('writes nothing for null and undefined', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(false)).toBe('false');
  });
});
