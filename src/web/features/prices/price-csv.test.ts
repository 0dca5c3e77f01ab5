import { describe, expect, it } from 'vitest';
import type { Price } from '../../../shared/schemas/prices';
import {
  diffPriceLists,
  parseCsvRecords,
  parsePriceCsv,
  PRICE_CSV_HEADER,
} from './price-csv';

const price = (prefix: string, overrides: Partial<Price> = {}): Price => ({
  prefix,
  name: `Destination ${prefix}`,
  pricePerSegment: 0.05,
  blocked: false,
  ...overrides,
});

describe('price list CSV', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, numbering records by their first line', () => {
    const records = parseCsvRecords(
      'a,b\r\n"x, y","say ""hi""\nthere"\n\nlast,1',
    );
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"\nthere'] },
      { line: 5, fields: ['last', '1'] },
    ]);
  });

  it('parses entries and names every bad line with its number', () => {
    const csv = [
      PRICE_CSV_HEADER,
      '44,United Kingdom,0.0725,false',
      '4479,"UK mobile, premium",0.5,true',
      '1x,Typo,0.01,false',
      '33,France,0.1234567,false',
      '49,Germany,0.08,maybe',
      '44,Again,0.01,false',
      '351,Portugal,0.04',
      "882,'=Satellite,1,",
    ].join('\n');
    const parsed = parsePriceCsv(csv);
    expect(parsed.prices).toEqual([
      price('44', { name: 'United Kingdom', pricePerSegment: 0.0725 }),
      price('4479', {
        name: 'UK mobile, premium',
        pricePerSegment: 0.5,
        blocked: true,
      }),
      // The export's guard against spreadsheet formulas is taken off again.
      price('882', { name: '=Satellite', pricePerSegment: 1 }),
    ]);
    expect(parsed.bad.map((bad) => bad.line)).toEqual([4, 5, 6, 7, 8]);
    expect(parsed.bad[0]?.reason).toMatch(/Prefix must be 1 to 15 digits/);
    expect(parsed.bad[1]?.reason).toMatch(/at most 6 decimal places/);
    expect(parsed.bad[2]?.reason).toBe('Blocked must be true or false');
    expect(parsed.bad[3]?.reason).toBe('Prefix 44 is listed twice');
    expect(parsed.bad[4]?.reason).toMatch(/expected 4 fields/);
  });

  it('refuses a file without the header on line 1', () => {
    expect(parsePriceCsv('44,UK,0.07,false').bad[0]).toEqual({
      line: 1,
      reason: `The first line must be the header ${PRICE_CSV_HEADER}`,
    });
    expect(parsePriceCsv('').bad).toHaveLength(1);
  });

  it('compares the list with the file: added, changed, removed, unchanged', () => {
    const diff = diffPriceLists(
      [price('44'), price('33'), price('49', { pricePerSegment: 0.08 })],
      [
        price('49', { pricePerSegment: 0.09 }),
        price('44'),
        price('1', { blocked: true }),
      ],
    );
    expect(diff.added).toEqual([price('1', { blocked: true })]);
    expect(diff.changed).toEqual([
      {
        before: price('49', { pricePerSegment: 0.08 }),
        after: price('49', { pricePerSegment: 0.09 }),
      },
    ]);
    expect(diff.removed).toEqual([price('33')]);
    expect(diff.unchanged).toBe(1);
  });
});
