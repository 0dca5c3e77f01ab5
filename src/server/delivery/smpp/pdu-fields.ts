/** The submit_sm fields built from a message: its addresses and its validity period. */

/** The largest day count of a relative validity_period (DD: two digits). */
const MAX_VALIDITY_DAYS = 99;

/**
 * SMPP 3.4 §7.1.1 relative time, "YYMMDDhhmmsstnnR", for a number of seconds: days, hours,
 * minutes and seconds (years and months stay 00, their length is not fixed; 2 days is
 * "000002000000000R"). Beyond 99 days it is 99 days 23:59:59, the most the field holds
 * without months (SMSCs cap validity far lower anyway).
 */
export function relativeValidityPeriod(seconds: number): string {
  const total = Math.min(
    Math.max(0, Math.floor(seconds)),
    (MAX_VALIDITY_DAYS + 1) * 86_400 - 1,
  );
  const two = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return `0000${two(days)}${two(hours)}${two(minutes)}${two(total % 60)}000R`;
}

/** Sender address fields: alphanumeric TON 5 NPI 0, a number TON 1 NPI 1 without '+'. */
export function sourceAddress(from: string) {
  const number = /^\+?(\d{1,20})$/.exec(from.trim());
  if (number) {
    return {
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: number[1],
    };
  }
  if (!/^[\x20-\x7e]{1,11}$/.test(from)) return null;
  return { source_addr_ton: 5, source_addr_npi: 0, source_addr: from };
}

export function destinationAddress(to: string) {
  const number = /^\+?(\d{1,20})$/.exec(to.trim());
  if (!number) return null;
  return { dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: number[1] };
}
