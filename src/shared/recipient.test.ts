import { describe, expect, it } from 'vitest';
import { cleanRecipient, isValidRecipient } from './recipient.ts';

describe('cleanRecipient', () => {
  it('removes plus signs, dots, dashes and whitespace', () => {
    expect(cleanRecipient('+44 20.7946-0958')).toBe('442079460958');
    expect(cleanRecipient(' +1\t555\n0100 ')).toBe('15550100');
  });

  it('keeps every other character, so validation can refuse it', () => {
    expect(cleanRecipient('(555) 0100')).toBe('(555)0100');
    expect(cleanRecipient('0044abc')).toBe('0044abc');
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

  it('judges the cleaned form', () => {
    expect(isValidRecipient(cleanRecipient('+44 20 7946 0958'))).toBe(true);
    expect(isValidRecipient(cleanRecipient('+1 234'))).toBe(false);
  });
});
