import type { Price } from '../../../shared/schemas/prices';

/** Recipients sharing one price list entry (or the default price: `prefix` null). */
export interface DestinationGroup {
  prefix: string | null;
  name: string;
  blocked: boolean;
  recipients: string[];
}

/**
 * Groups recipients by the price list entry that prices them: the longest prefix of their
 * digits in the list (CONTRACT "Destinations"), or none (the default price). Largest group
 * first, so a quote per group keeps the requests to the number of destinations.
 */
export function groupByDestination(
  recipients: readonly string[],
  entries: readonly Price[],
): DestinationGroup[] {
  const byPrefix = new Map(entries.map((entry) => [entry.prefix, entry]));
  const longest = Math.max(0, ...entries.map((entry) => entry.prefix.length));
  const groups = new Map<string | null, DestinationGroup>();
  for (const recipient of recipients) {
    let entry: Price | undefined;
    for (
      let length = Math.min(longest, recipient.length);
      length > 0;
      length--
    ) {
      entry = byPrefix.get(recipient.slice(0, length));
      if (entry) break;
    }
    const prefix = entry?.prefix ?? null;
    let group = groups.get(prefix);
    if (!group) {
      group = {
        prefix,
        name: entry?.name ?? 'Other destinations',
        blocked: entry?.blocked ?? false,
        recipients: [],
      };
      groups.set(prefix, group);
    }
    group.recipients.push(recipient);
  }
  return [...groups.values()].sort(
    (a, b) => b.recipients.length - a.recipients.length,
  );
}

const SCALE = 6;

function toMicros(amount: number | string): bigint {
  const text = typeof amount === 'number' ? amount.toFixed(SCALE) : amount;
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const micros = BigInt(whole + fraction.padEnd(SCALE, '0').slice(0, SCALE));
  return negative ? -micros : micros;
}

function fromMicros(micros: bigint): string {
  const negative = micros < 0n;
  const digits = (negative ? -micros : micros)
    .toString()
    .padStart(SCALE + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -SCALE)}.${digits.slice(-SCALE)}`;
}

/** Exact sum of amounts (up to 6 decimal places), as decimal text: no floating point. */
export function sumAmounts(amounts: readonly (number | string)[]): string {
  return fromMicros(amounts.reduce<bigint>((sum, a) => sum + toMicros(a), 0n));
}

/** `balance − total`, exactly; negative when the balance does not cover it. */
export function subtractAmount(
  balance: number | string,
  total: string,
): string {
  return fromMicros(toMicros(balance) - toMicros(total));
}
