import { describe, expect, it } from 'vitest';
import { parsePriceCsv, PRICE_CSV_HEADER, priceCsvLine } from './price-csv.ts';

const csv = (...lines: string[]) => [PRICE_CSV_HEADER, ...lines].join('\n');

describe('parsePriceCsv', () => {
  it('reads entries, quoted names, CRLF, a BOM, blank lines and an empty blocked', () => {
    const parsed = parsePriceCsv(
      `\uFEFF${csv('44,United Kingdom,0.0725,false', '', '4479,"Premium, ""UK""",1.5,TRUE', '1,USA,0.01,')}\r\n`.replace(
        /\n/g,
        '\r\n',
      ),
    );
    expect(parsed).toEqual({
      ok: true,
      entries: [
        {
          prefix: '44',
          name: 'United Kingdom',
          pricePerSegment: '0.0725',
          blocked: false,
        },
        {
          prefix: '4479',
          name: 'Premium, "UK"',
          pricePerSegment: '1.5',
          blocked: true,
        },
        { prefix: '1', name: 'USA', pricePerSegment: '0.01', blocked: false },
      ],
    });
  });

  it('names the first bad line and what is wrong with it', () => {
    const cases: [string, RegExp][] = [
      [
        csv('44,UK,0.05,false', '4a,X,0.05,false'),
        /^Line 3: Prefix must be 1 to 15 digits/,
      ],
      [
        csv('44,UK,0.05,false', '45,X,0.1234567,false'),
        /^Line 3: .*at most 6 decimal places/,
      ],
      [csv('44,UK,0.05,false', '45,X,-1,false'), /^Line 3: .*at least 0/],
      [
        csv('44,UK,0.05,false', `45,${'x'.repeat(101)},1,false`),
        /^Line 3: Name is too long/,
      ],
      [
        csv('44,UK,0.05,false', '45,X,1,maybe'),
        /^Line 3: Blocked must be true or false/,
      ],
      [
        csv('44,UK,0.05,false', '45,X,1'),
        /^Line 3: expected 4 fields .* found 3/,
      ],
      [
        csv('44,UK,0.05,false', '45,"X,1,false'),
        /^Line 3: a quoted field is not closed/,
      ],
      [
        csv('44,UK,0.05,false', '45,X",1,false'),
        /^Line 3: a field holding a quote/,
      ],
      [
        csv('44,UK,0.05,false', '', '44,Again,1,false'),
        /^Line 4: prefix 44 is already on line 2/,
      ],
      [
        'prefix,name,price\n44,UK,1,false',
        /^Line 1: the header must be prefix,name,pricePerSegment,blocked/,
      ],
    ];
    for (const [text, message] of cases) {
      const parsed = parsePriceCsv(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(message);
    }
  });

  it('reads back what priceCsvLine writes, a defused formula name included', () => {
    const entries = [
      {
        prefix: '44',
        name: '=HYPERLINK("x")',
        pricePerSegment: '0.0725',
        blocked: false,
      },
      { prefix: '4479', name: 'A; B, C', pricePerSegment: '2', blocked: true },
    ];
    // As the database gives them: numeric(17, 6) text.
    const stored = ['0.072500', '2.000000'];
    const text = csv(
      ...entries.map((e, n) =>
        priceCsvLine({ ...e, pricePerSegment: stored[n]! }),
      ),
    );
    expect(text).toContain(`44,"'=HYPERLINK(""x"")",0.0725,false`);
    expect(parsePriceCsv(text)).toEqual({ ok: true, entries });
  });
});
