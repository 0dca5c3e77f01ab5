import {
  PrefixSchema,
  PutPriceSchema,
  type Price,
} from '../../../shared/schemas/prices';

/** The price list's CSV header (CONTRACT "Destinations"), the export's and the import's. */
export const PRICE_CSV_HEADER = 'prefix,name,pricePerSegment,blocked';

/** A CSV record and the line of the file it starts on (1 is the header). */
interface CsvRecord {
  line: number;
  fields: string[];
}

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const source = text.replace(/^\uFEFF/, '');
  const endRecord = () => {
    fields.push(field);
    // A blank line (one empty field) is no record.
    if (fields.length > 1 || fields[0] !== '') {
      records.push({ line: start, fields });
    }
    fields = [];
    field = '';
  };
  for (let i = 0; i < source.length; i++) {
    const char = source.charAt(i);
    if (quoted) {
      if (char === '"' && source.charAt(i + 1) === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === '\n') line++;
        field += char;
      }
    } else if (char === '"' && field === '') {
      quoted = true;
    } else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source.charAt(i + 1) === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else {
      field += char;
    }
  }
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

/** A line the import would refuse, with its number in the file. */
export interface BadLine {
  line: number;
  reason: string;
}

export interface ParsedPriceCsv {
  prices: Price[];
  bad: BadLine[];
}

/** The export puts a ' before a name a spreadsheet would run as a formula: taken off again. */
function unescapeText(value: string): string {
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

function parseBlocked(value: string): boolean | null {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  return null;
}

/** One data record as a price, or why the import would refuse it. */
function parseRecord(fields: string[]): Price | string {
  if (fields.length !== 4) {
    return `expected 4 fields (${PRICE_CSV_HEADER}), found ${fields.length}`;
  }
  const [prefixText = '', nameText = '', priceText = '', blockedText = ''] =
    fields;
  const prefix = PrefixSchema.safeParse(prefixText.trim());
  if (!prefix.success) return prefix.error.issues[0]?.message ?? 'bad prefix';
  const entry = PutPriceSchema.safeParse({
    name: unescapeText(nameText),
    pricePerSegment: priceText,
  });
  if (!entry.success) return entry.error.issues[0]?.message ?? 'bad entry';
  const blocked = parseBlocked(blockedText);
  if (blocked === null) return 'Blocked must be true or false';
  return {
    prefix: prefix.data,
    name: entry.data.name,
    pricePerSegment: Number(entry.data.pricePerSegment),
    blocked,
  };
}

/**
 * A price list CSV read as the import reads it: the header first, then one entry a line; each
 * line that would be refused is listed with its number and why (a prefix twice included).
 */
export function parsePriceCsv(text: string): ParsedPriceCsv {
  const [header, ...records] = parseCsvRecords(text);
  const bad: BadLine[] = [];
  if (
    !header ||
    header.fields.map((f) => f.trim()).join(',') !== PRICE_CSV_HEADER
  ) {
    bad.push({
      line: header?.line ?? 1,
      reason: `The first line must be the header ${PRICE_CSV_HEADER}`,
    });
  }
  const prices: Price[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    const result = parseRecord(record.fields);
    if (typeof result === 'string') {
      bad.push({ line: record.line, reason: result });
    } else if (seen.has(result.prefix)) {
      bad.push({
        line: record.line,
        reason: `Prefix ${result.prefix} is listed twice`,
      });
    } else {
      seen.add(result.prefix);
      prices.push(result);
    }
  }
  return { prices, bad };
}

export interface PriceChange {
  before: Price;
  after: Price;
}

export interface PriceListDiff {
  added: Price[];
  changed: PriceChange[];
  removed: Price[];
  unchanged: number;
}

function samePrice(a: Price, b: Price): boolean {
  return (
    a.name === b.name &&
    a.pricePerSegment === b.pricePerSegment &&
    a.blocked === b.blocked
  );
}

/** What replacing `current` by `next` does, entry by entry (each list by prefix). */
export function diffPriceLists(
  current: readonly Price[],
  next: readonly Price[],
): PriceListDiff {
  const before = new Map(current.map((price) => [price.prefix, price]));
  const after = new Map(next.map((price) => [price.prefix, price]));
  const byPrefix = (a: Price, b: Price) => a.prefix.localeCompare(b.prefix);
  const diff: PriceListDiff = {
    added: [],
    changed: [],
    removed: [],
    unchanged: 0,
  };
  for (const price of next) {
    const old = before.get(price.prefix);
    if (!old) diff.added.push(price);
    else if (samePrice(old, price)) diff.unchanged++;
    else diff.changed.push({ before: old, after: price });
  }
  diff.removed = current.filter((price) => !after.has(price.prefix));
  diff.added.sort(byPrefix);
  diff.changed.sort((a, b) => byPrefix(a.after, b.after));
  diff.removed.sort(byPrefix);
  return diff;
}
