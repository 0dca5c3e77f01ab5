import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEYWORD_GROUPS, keywordOf } from '../../shared/keywords.ts';

/**
 * inbound_keyword (migrations/functions/inbound_keyword.sql) is keywordOf in SQL, for messages
 * joined from parts in the database: one list of words (KEYWORD_GROUPS), the same trimming and
 * the same upper-casing. Read from the file here; tests/api/features/inbound/inbound-keyword.test.ts
 * runs both on the databases.
 */
const sql = readFileSync(
  new URL('../../../migrations/functions/inbound_keyword.sql', import.meta.url),
  'utf8',
).replace(/--.*$/gm, '');

/** An E'…' literal's text: \uXXXX, \t, \n, \f, \r as PostgreSQL reads them. */
function literal(text: string): string {
  return text.replace(/\\(u[0-9A-Fa-f]{4}|[tnfr])/g, (_, escape: string) =>
    escape.startsWith('u')
      ? String.fromCharCode(parseInt(escape.slice(1), 16))
      : { t: '\t', n: '\n', f: '\f', r: '\r' }[escape]!,
  );
}

/** Every code point but the surrogates. */
function* codePoints(): Generator<string> {
  for (let c = 0; c < 0x110000; c++) {
    if (c < 0xd800 || c > 0xdfff) yield String.fromCodePoint(c);
  }
}

describe('inbound_keyword.sql beside keywordOf', () => {
  it('maps exactly the words of KEYWORD_GROUPS to their groups', () => {
    const map = JSON.parse(/'(\{[^']*\})'::jsonb/.exec(sql)![1]!) as Record<
      string,
      string
    >;
    const expected = Object.fromEntries(
      Object.entries(KEYWORD_GROUPS).flatMap(([group, words]) =>
        words.map((word) => [word, group]),
      ),
    );
    expect(map).toEqual(expected);
  });

  it("trims exactly JavaScript's white space", () => {
    const trimmed = new Set(
      literal(/btrim\(p_body, E'([^']*)'\)/.exec(sql)![1]!),
    );
    const whiteSpace = [...codePoints()].filter((c) => c.trim() === '');
    expect([...trimmed].sort()).toEqual(whiteSpace.sort());
  });

  it('upper-cases, as JavaScript does, every character JavaScript upper-cases to ASCII letters', () => {
    const replaced = new Map(
      [...sql.matchAll(/E'(\\u[0-9A-F]{4})', '([A-Z]+)'\)/g)].map((m) => [
        literal(m[1]!),
        m[2]!,
      ]),
    );
    const [, from, to] = /translate\([\s\S]*E'([^']*)', '([^']*)'\)/.exec(sql)!;
    const translated = [...literal(from!)];
    translated.forEach((c, i) => replaced.set(c, to![i]!));
    const toAscii = [...codePoints()].filter(
      (c) => !/[A-Z]/.test(c) && /^[A-Z]+$/.test(c.toUpperCase()),
    );
    expect([...replaced.keys()].sort()).toEqual(toAscii.sort());
    for (const c of toAscii) expect(replaced.get(c), c).toBe(c.toUpperCase());
  });

  it('keywordOf: the examples the SQL twin is held to', () => {
    expect(keywordOf(' stop ')).toBe('STOP');
    expect(keywordOf('\u017Ftop')).toBe('STOP');
    expect(keywordOf('\uFB06op')).toBe('STOP');
    expect(keywordOf('stop please')).toBeNull();
    expect(keywordOf('unsubscribe\u3000')).toBe('STOP');
  });
});
