import {
  parsePriceCsv,
  PRICE_CSV_HEADER,
  type PriceCsvEntry,
} from '../../../shared/price-csv';

/**
 * What an import would do, read in the browser with the server's own CSV reader
 * (src/shared/price-csv.ts), so the preview says what the import will say.
 */
export interface PriceCsvCheck {
  entries: PriceCsvEntry[];
  /** `Line n: what is wrong`, every bad line (the import names the first). */
  bad: string[];
}

/** A data line read alone, as the import reads it, or its problem under its own number. */
function checkLine(line: string, number: number): PriceCsvEntry | string {
  const alone = parsePriceCsv(`${PRICE_CSV_HEADER}\n${line}`);
  return alone.ok
    ? alone.entries[0]!
    : alone.message.replace(/^Line 2:/, `Line ${number}:`);
}

/**
 * The file's entries, or every bad line in it: the import stops at the first, the preview lists
 * them all so they are fixed in one go (a prefix repeated is bad where it repeats).
 */
export function checkPriceCsv(text: string): PriceCsvCheck {
  const whole = parsePriceCsv(text);
  if (whole.ok) return { entries: whole.entries, bad: [] };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (whole.line === 1) return { entries: [], bad: [whole.message] };
  const bad: string[] = [];
  const seen = new Map<string, number>();
  lines.forEach((line, index) => {
    if (index === 0 || line.trim() === '') return;
    const checked = checkLine(line, index + 1);
    if (typeof checked === 'string') {
      bad.push(checked);
      return;
    }
    const earlier = seen.get(checked.prefix);
    if (earlier === undefined) seen.set(checked.prefix, index + 1);
    else {
      bad.push(
        `Line ${index + 1}: prefix ${checked.prefix} is already on line ${earlier}`,
      );
    }
  });
  return { entries: [], bad };
}

export interface PriceChange {
  before: PriceCsvEntry;
  after: PriceCsvEntry;
}

export interface PriceListDiff {
  added: PriceCsvEntry[];
  changed: PriceChange[];
  removed: PriceCsvEntry[];
  unchanged: number;
}

/** Prices compare as numbers: 0.072500 in a file is the 0.0725 of the list. */
function samePrice(a: PriceCsvEntry, b: PriceCsvEntry): boolean {
  return (
    a.name === b.name &&
    Number(a.pricePerSegment) === Number(b.pricePerSegment) &&
    a.blocked === b.blocked
  );
}

/** What replacing `current` by `next` does, entry by entry, each part by prefix. */
export function diffPriceLists(
  current: readonly PriceCsvEntry[],
  next: readonly PriceCsvEntry[],
): PriceListDiff {
  const before = new Map(current.map((entry) => [entry.prefix, entry]));
  const after = new Set(next.map((entry) => entry.prefix));
  const byPrefix = (a: PriceCsvEntry, b: PriceCsvEntry) =>
    a.prefix.localeCompare(b.prefix);
  const diff: PriceListDiff = {
    added: [],
    changed: [],
    removed: current.filter((entry) => !after.has(entry.prefix)),
    unchanged: 0,
  };
  for (const entry of next) {
    const old = before.get(entry.prefix);
    if (!old) diff.added.push(entry);
    else if (samePrice(old, entry)) diff.unchanged++;
    else diff.changed.push({ before: old, after: entry });
  }
  diff.added.sort(byPrefix);
  diff.changed.sort((a, b) => byPrefix(a.after, b.after));
  diff.removed.sort(byPrefix);
  return diff;
}
