import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatMoney,
  multiplyDecimal,
  parseDecimal,
} from './money.ts';

describe('parseDecimal', () => {
  it('accepts numbers and strings with up to 4 decimals, as canonical text', () => {
    expect(parseDecimal(10)).toBe('10');
    expect(parseDecimal(0.05)).toBe('0.05');
    expect(parseDecimal('12.3456')).toBe('12.3456');
    expect(parseDecimal(' 7.5 ')).toBe('7.5');
    expect(parseDecimal('007.50')).toBe('7.5');
    expect(parseDecimal('1.0000')).toBe('1');
    expect(parseDecimal('0.0')).toBe('0');
    expect(parseDecimal('99999999999.9999')).toBe('99999999999.9999');
  });

  it('refuses negatives, exponents, too many places or digits, and junk', () => {
    for (const bad of [
      '-1',
      '1e3',
      '1.23456',
      '123456789012',
      'abc',
      '',
      '1.',
      '.5',
      '1,5',
      '0x10',
    ]) {
      expect(parseDecimal(bad), bad).toBeNull();
    }
    expect(parseDecimal(Number.NaN)).toBeNull();
    expect(parseDecimal(Number.POSITIVE_INFINITY)).toBeNull();
    expect(parseDecimal(1e21)).toBeNull();
    expect(parseDecimal(0.1 + 0.2)).toBeNull();
  });
});

describe('formatAmount', () => {
  it('shows 2 decimals, rounding half up on the decimal text', () => {
    expect(formatAmount('5')).toBe('5.00');
    expect(formatAmount('0.5')).toBe('0.50');
    expect(formatAmount('12.345')).toBe('12.35');
    expect(formatAmount('12.3449')).toBe('12.34');
    expect(formatAmount('0.005')).toBe('0.01');
    expect(formatAmount('999.995')).toBe('1000.00');
    // In floating point 2.675 is 2.67499…; the text rounds as a person would.
    expect(formatAmount(2.675)).toBe('2.68');
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(1234567.891)).toBe('1234567.89');
  });

  it('keeps the sign of negative amounts and drops it when they round to zero', () => {
    expect(formatAmount('-2.5')).toBe('-2.50');
    expect(formatAmount('-0.004')).toBe('0.00');
  });

  it('formats money as the currency code then the amount', () => {
    expect(formatMoney('EUR', '12.5')).toBe('EUR 12.50');
    expect(formatMoney('USD', 0)).toBe('USD 0.00');
  });
});

describe('multiplyDecimal', () => {
  it('multiplies exactly, without floating point', () => {
    expect(multiplyDecimal('0.05', 3)).toBe('0.15');
    expect(multiplyDecimal('0.1', 3)).toBe('0.3');
    expect(multiplyDecimal('0.0001', 10)).toBe('0.0010');
    expect(multiplyDecimal('2', 10)).toBe('20');
    expect(multiplyDecimal('1.2345', 0)).toBe('0.0000');
    expect(multiplyDecimal('99999999999.9999', 10)).toBe('999999999999.9990');
  });
});
