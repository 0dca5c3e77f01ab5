import { describe, expect, it } from 'vitest';
import {
  RECIPIENT_PATTERN,
  cleanRecipient,
  isNationalNumber,
  isValidRecipient,
} from './recipient.ts';

describe('cleanRecipient', () => {
  it('removes plus signs, dots, dashes and whitespace', () => {
    expect(cleanRecipient('+44 20.7946-0958')).toBe('442079460958');
    expect(cleanRecipient(' +1\t555\n0100 ')).toBe('15550100');
  });

  it('drops a leading 00, the international prefix, with or without a plus before it', () => {
    expect(cleanRecipient('0044 7911 123456')).toBe('447911123456');
    expect(cleanRecipient('00447911123456')).toBe('447911123456');
    expect(cleanRecipient('+00 44 7911 123456')).toBe('447911123456');
    expect(cleanRecipient('008816123456')).toBe('8816123456');
    expect(cleanRecipient('0033612345678')).toBe(cleanRecipient('33612345678'));
  });

  it('drops the 00 once only, and keeps a single leading 0', () => {
    expect(cleanRecipient('000447911123456')).toBe('0447911123456');
    expect(cleanRecipient('07911123456')).toBe('07911123456');
    expect(cleanRecipient('4400123456')).toBe('4400123456');
  });

  it('keeps every other character, so validation can refuse it', () => {
    expect(cleanRecipient('(555) 0100')).toBe('(555)0100');
    expect(cleanRecipient('0044abc')).toBe('44abc');
  });
});

describe('isValidRecipient', () => {
  it('accepts 6 to 15 digits', () => {
    expect(isValidRecipient('123456')).toBe(true);
    expect(isValidRecipient('123456789012345')).toBe(true);
  });

  it('refuses fewer than 6 or more than 15 digits, and any non-digit', () => {
    expect(isValidRecipient('12345')).toBe(false);
    expect(isValidRecipient('1234567890123456')).toBe(false);
    expect(isValidRecipient('')).toBe(false);
    expect(isValidRecipient('12345a')).toBe(false);
    expect(isValidRecipient('+123456')).toBe(false);
    expect(isValidRecipient('١٢٣٤٥٦')).toBe(false);
  });

  it('refuses a national number (a leading 0 once 00 is dropped)', () => {
    expect(isValidRecipient('07911123456')).toBe(false);
    expect(isNationalNumber('07911123456')).toBe(true);
    expect(isNationalNumber(cleanRecipient('000447911123456'))).toBe(true);
    expect(isNationalNumber('0123')).toBe(false);
    expect(isNationalNumber('447911123456')).toBe(false);
  });

  it('judges the cleaned form', () => {
    expect(isValidRecipient(cleanRecipient('+44 20 7946 0958'))).toBe(true);
    expect(isValidRecipient(cleanRecipient('+1 234'))).toBe(false);
    expect(isValidRecipient(cleanRecipient('0044 7911 123456'))).toBe(true);
    // 15 digits after the 00.
    expect(isValidRecipient(cleanRecipient('00123456789012345'))).toBe(true);
  });
});

describe('RECIPIENT_PATTERN', () => {
  it('accepts what the server accepts, as typed', () => {
    const pattern = new RegExp(RECIPIENT_PATTERN);
    for (const typed of [
      '+44 7700 900123',
      '0044 7911 123456',
      '+00 44 7911 123456',
      '123456',
      '00123456789012345',
    ]) {
      expect(pattern.test(typed), typed).toBe(true);
      expect(isValidRecipient(cleanRecipient(typed)), typed).toBe(true);
    }
    for (const typed of [
      '12345',
      '07911123456',
      '0001234567',
      '1234567890123456',
    ]) {
      expect(pattern.test(typed), typed).toBe(false);
      expect(isValidRecipient(cleanRecipient(typed)), typed).toBe(false);
    }
  });
});
