/**
 * Fields of the CSV downloads (RFC 4180), one rule for all of them. A field is quoted when it
 * holds a quote, a line break or a separator a spreadsheet may split on: the comma, and the
 * semicolon and TAB that Excel uses in locales where the comma is the decimal mark.
 */
const NEEDS_QUOTES = /[",;\t\r\n]/;
/** A leading =, +, -, @, TAB or CR makes a spreadsheet read the cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field. `text`: the value is free text (a customer's or an admin's), so a leading
 * formula character gets a ' in front and a spreadsheet shows it instead of running it.
 */
export function csvField(
  value: string | number | boolean | null | undefined,
  { text = false }: { text?: boolean } = {},
): string {
  let out = value === null || value === undefined ? '' : String(value);
  if (text && FORMULA_START.test(out)) out = `'${out}`;
  return NEEDS_QUOTES.test(out) ? `"${out.replaceAll('"', '""')}"` : out;
}
