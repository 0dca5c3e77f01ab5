import { describe, expect, it } from 'vitest';
import {
  PRICE_CSV_HEADER,
  type PriceCsvEntry,
} from '../../../shared/price-csv';
import { checkPriceCsv, diffPriceLists } from './price-csv';

const entry = (
  prefix: string,
  overrides: Partial<PriceCsvEntry> = {},
): PriceCsvEntry => ({
  prefix,
  name: `Destination ${prefix}`,
  pricePerSegment: '0.05',
  blocked: false,
  ...overrides,
});

describe('checking a price list CSV in the browser', () => {
  it('gives the entries of a good file, read by the shared reader', () => {
    const check = checkPriceCsv(
      `${PRICE_CSV_HEADER}\r\n44,"United Kingdom, mobile",0.0725,false\r\n4479,Premium,1.5,true\r\n`,
    );
    expect(check).toEqual({
      entries: [
        entry('44', {
          name: 'United Kingdom, mobile',
          pricePerSegment: '0.0725',
        }),
        entry('4479', {
          name: 'Premium',
          pricePerSegment: '1.5',
          blocked: true,
        }),
      ],
      bad: [],
    });
  });

  it('lists every bad line with its number, not only the first', () => {
    const check = checkPriceCsv(
      [
        PRICE_CSV_HEADER,
        '44,United Kingdom,0.0725,false',
        '1x,Typo,0.01,false',
        '',
        '33,France,0.1234567,false',
        '49,Germany,0.08,maybe',
        '44,Again,0.01,false',
        '351,Portugal,0.04',
      ].join('\n'),
    );
    expect(check.entries).toEqual([]);
    expect(check.bad).toHaveLength(5);
    expect(check.bad[0]).toMatch(/^Line 3: Prefix must be 1 to 15 digits/);
    expect(check.bad[1]).toMatch(/^Line 5: .*at most 6 decimal places/);
    expect(check.bad[2]).toBe('Line 6: Blocked must be true or false');
    expect(check.bad[3]).toBe('Line 7: prefix 44 is already on line 2');
    expect(check.bad[4]).toMatch(/^Line 8: expected 4 fields/);
  });

  it('refuses a file without the header on line 1', () => {
    expect(checkPriceCsv('44,UK,0.07,false').bad).toEqual([
      `Line 1: the header must be ${PRICE_CSV_HEADER}`,
    ]);
  });

  it('compares the list with the file: added, changed, removed, unchanged (prices as numbers)', () => {
    const diff = diffPriceLists(
      [entry('44'), entry('33'), entry('49', { pricePerSegment: '0.08' })],
      [
        entry('49', { pricePerSegment: '0.09' }),
        entry('44', { pricePerSegment: '0.050000' }),
        entry('1', { blocked: true }),
      ],
    );
    expect(diff.added).toEqual([entry('1', { blocked: true })]);
    expect(diff.changed).toEqual([
      {
        before: entry('49', { pricePerSegment: '0.08' }),
        after: entry('49', { pricePerSegment: '0.09' }),
      },
    ]);
    expect(diff.removed).toEqual([entry('33')]);
    expect(diff.unchanged).toBe(1);
  });
});
