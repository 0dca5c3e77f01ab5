import { MONEY_SCALE } from './limits.ts';

/**
 * Money travels as decimal strings between the API and the database so no sum is ever done
 * in floating point. Balances are added to and subtracted from in SQL numeric only; the one
 * product computed here is an SMS price (decimal × segments, on scaled integers, exact), so
 * the console shows the same price the server charges.
 */

const DECIMAL = new RegExp(`^\\d{1,11}(\\.\\d{1,${MONEY_SCALE}})?$`);

/** Canonical decimal text of a positive amount given as a number or a string, or null. */
export function parseDecimal(input: number | string): string | null {
  const text =
    typeof input === 'number'
      ? Number.isFinite(input)
        ? String(input)
        : ''
      : input.trim();
  if (!DECIMAL.test(text)) return null;
  // Canonical: `007.50` and `7.5` are the same amount and must compare equal as text.
  const [whole = '0', fraction = ''] = text.split('.');
  const integer = whole.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  return decimals ? `${integer}.${decimals}` : integer;
}

/** Formats a decimal amount with 2 decimals, rounding half up on the decimal text itself. */
export function formatAmount(amount: number | string): string {
  const text =
    typeof amount === 'number' ? amount.toFixed(MONEY_SCALE) : amount;
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const cents = BigInt(whole + (fraction + '00').slice(0, 2));
  const roundUp = Number((fraction + '000').charAt(2)) >= 5;
  const total = cents + (roundUp ? 1n : 0n);
  const digits = total.toString().padStart(3, '0');
  const sign = negative && total !== 0n ? '-' : '';
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** `EUR 12.50`: the currency code followed by the amount with 2 decimals. */
export function formatMoney(currency: string, amount: number | string): string {
  return `${currency} ${formatAmount(amount)}`;
}

/** Multiplies a decimal price by an integer count exactly, using scaled integers. */
export function multiplyDecimal(price: string, count: number): string {
  const [whole = '0', fraction = ''] = price.split('.');
  const scale = fraction.length;
  const scaled = BigInt(whole + fraction) * BigInt(count);
  if (scale === 0) return scaled.toString();
  const digits = scaled.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
