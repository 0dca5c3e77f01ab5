import { csvField } from './csv.ts';
import { PrefixSchema, PutPriceSchema } from './schemas/prices.ts';

/**
 * The price list as CSV (CONTRACT "Destinations"): the header `prefix,name,pricePerSegment,blocked`
 * then one entry a line. The server writes the export and reads the import with these; the
 * console can read a file the same way to show what an import would change.
 */

export const PRICE_CSV_HEADER = 'prefix,name,pricePerSegment,blocked';

/** An entry as the CSV carries it: the price is decimal text, never a float. */
export interface PriceCsvEntry {
  prefix: string;
  name: string;
  pricePerSegment: string;
  blocked: boolean;
}

export type PriceCsvResult =
  | { ok: true; entries: PriceCsvEntry[] }
  | { ok: false; line: number; message: string };

/** A decimal's text without the zeros that end its fraction (0.072500 → 0.0725, 2.000000 → 2). */
function trimDecimal(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** One line of the export; the name is free text, so a formula start is defused. */
export function priceCsvLine(entry: {
  prefix: string;
  name: string;
  pricePerSegment: string | number;
  blocked: boolean;
}): string {
  return [
    entry.prefix,
    csvField(entry.name, { text: true }),
    trimDecimal(String(entry.pricePerSegment)),
    String(entry.blocked),
  ].join(',');
}

/**
 * The fields of one line (RFC 4180: a quoted field may hold commas and doubled quotes), or a
 * message when its quotes do not close.
 */
function splitLine(line: string): string[] | string {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        const close = line.indexOf('"', i);
        if (close === -1) return 'a quoted field is not closed';
        value += line.slice(i, close);
        i = close + 1;
        if (line[i] !== '"') break;
        value += '"';
        i += 1;
      }
      fields.push(value);
      if (i < line.length && line[i] !== ',') {
        return 'a quoted field must end at a comma';
      }
    } else {
      const comma = line.indexOf(',', i);
      const end = comma === -1 ? line.length : comma;
      const value = line.slice(i, end);
      if (value.includes('"')) {
        return 'a field holding a quote must be quoted';
      }
      fields.push(value);
      i = end;
    }
    if (i >= line.length) return fields;
    i += 1; // the comma
  }
}

/** An exported name's defusing apostrophe (see csvField) is not part of the name. */
function undefused(name: string): string {
  return /^'[=+\-@\t\r]/.test(name) ? name.slice(1) : name;
}

function parseBlocked(text: string): boolean | undefined {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  return undefined;
}

/**
 * Reads a whole price list: line 1 is the header, each further line an entry; blank lines are
 * skipped. The first bad line is answered with its number (counted from 1, the header) and
 * what is wrong with it; a prefix listed twice is bad on its second line.
 */
export function parsePriceCsv(text: string): PriceCsvResult {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const fail = (line: number, message: string): PriceCsvResult => ({
    ok: false,
    line,
    message: `Line ${line}: ${message}`,
  });
  if (lines[0]?.trim() !== PRICE_CSV_HEADER) {
    return fail(1, `the header must be ${PRICE_CSV_HEADER}`);
  }
  const entries: PriceCsvEntry[] = [];
  const seen = new Map<string, number>();
  for (let index = 1; index < lines.length; index += 1) {
    const number = index + 1;
    const line = lines[index]!;
    if (line.trim() === '') continue;
    const fields = splitLine(line);
    if (typeof fields === 'string') return fail(number, fields);
    if (fields.length !== 4) {
      return fail(
        number,
        `expected 4 fields (${PRICE_CSV_HEADER}), found ${fields.length}`,
      );
    }
    const [prefixText, name, price, blockedText] = fields as [
      string,
      string,
      string,
      string,
    ];
    const prefix = PrefixSchema.safeParse(prefixText.trim());
    if (!prefix.success) return fail(number, prefix.error.issues[0]!.message);
    const blocked = parseBlocked(blockedText);
    if (blocked === undefined) {
      return fail(number, 'Blocked must be true or false');
    }
    const entry = PutPriceSchema.safeParse({
      name: undefused(name),
      pricePerSegment: price,
      blocked,
    });
    if (!entry.success) return fail(number, entry.error.issues[0]!.message);
    const earlier = seen.get(prefix.data);
    if (earlier !== undefined) {
      return fail(
        number,
        `prefix ${prefix.data} is already on line ${earlier}`,
      );
    }
    seen.set(prefix.data, number);
    entries.push({
      prefix: prefix.data,
      name: entry.data.name,
      pricePerSegment: entry.data.pricePerSegment,
      blocked,
    });
  }
  return { ok: true, entries };
}
