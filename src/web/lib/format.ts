const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date as the console shows it: 'Nov 23, 2026' in the browser's language. A moment is
 * shown on its day in the browser's zone; a day (`2026-11-23`, as the usage per UTC day) is
 * that calendar day wherever the browser is.
 */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: DAY.test(iso) ? 'UTC' : undefined,
  });
}

/**
 * A moment as the console shows it, in every list and panel: 'Nov 23, 2026, 14:05' in the
 * browser's language and zone.
 */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** When a client's secret last authenticated a call (CONTRACT.md), or 'Never'. */
export function formatLastUsed(iso: string | null | undefined): string {
  return iso ? formatDateTime(iso) : 'Never';
}

/**
 * A price per segment as the console shows it: `EUR 0.0725`, the currency then the exact
 * decimal with at least 2 places and none of the trailing zeros beyond them (prices carry up to
 * 6 places, so they are never rounded to cents like amounts are).
 */
export function formatPrice(currency: string, price: number | string): string {
  const text = typeof price === 'number' ? price.toFixed(6) : price.trim();
  const [whole = '0', fraction = ''] = text.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${currency} ${whole}.${trimmed}`;
}

/** Where a message's price came from: its price list prefix, or the default price (null). */
export function priceSourceText(pricePrefix: string | null): string {
  return pricePrefix === null ? 'default price' : `prefix ${pricePrefix}`;
}

/** `EUR 0.0725 (prefix 44)`: a price per segment and where it came from. */
export function formatPriceFrom(
  currency: string,
  price: number | string,
  pricePrefix: string | null,
): string {
  return `${formatPrice(currency, price)} (${priceSourceText(pricePrefix)})`;
}

/**
 * A phone number held as digits (an inbound number, a conversation's remote number) as the
 * console shows it: with its '+', or as dialled for a short code (8 digits or fewer). A sender
 * that is a name (alphanumeric) is shown as it is.
 */
export function formatPhoneNumber(number: string): string {
  return /^\d{9,}$/.test(number) ? `+${number}` : number;
}
