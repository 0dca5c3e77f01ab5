import { describe, expect, it } from 'vitest';
import { formatPhoneNumber, formatPrice, formatPriceFrom } from './format';

describe('formatPrice', () => {
  it('keeps every decimal of a price (up to 6), at least 2, never rounded to cents', () => {
    expect(formatPrice('EUR', 0.0725)).toBe('EUR 0.0725');
    expect(formatPrice('EUR', 0.000001)).toBe('EUR 0.000001');
    expect(formatPrice('EUR', 1.5)).toBe('EUR 1.50');
    expect(formatPrice('EUR', 2)).toBe('EUR 2.00');
    expect(formatPrice('USD', '0.050000')).toBe('USD 0.05');
  });

  it('says where a price came from: its prefix or the default price', () => {
    expect(formatPriceFrom('EUR', 0.0725, '44')).toBe('EUR 0.0725 (prefix 44)');
    expect(formatPriceFrom('EUR', 0.05, null)).toBe('EUR 0.05 (default price)');
  });
});

describe('formatPhoneNumber', () => {
  it("writes a phone number with its '+' and a short code as dialled", () => {
    expect(formatPhoneNumber('447700900123')).toBe('+447700900123');
    expect(formatPhoneNumber('123456789')).toBe('+123456789');
    expect(formatPhoneNumber('12345678')).toBe('12345678');
    expect(formatPhoneNumber('456')).toBe('456');
    expect(formatPhoneNumber('ShopAlerts')).toBe('ShopAlerts');
  });
});
