// @also-on-pglite: inbound_keyword's btrim, translate and jsonb lookup on PGlite's own build (its locale, its Unicode handling) must answer as keywordOf does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYWORD_GROUPS, keywordOf } from '../../../../src/shared/keywords.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * The keyword of a message joined from parts is decided in SQL (inbound_keyword), of every other
 * one too (record_inbound): it must be keywordOf's answer, whatever the database's locale. The
 * file's lists are checked against the TypeScript ones by src/server/inbound/keyword-sql.test.ts;
 * here both functions answer the same bodies.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const WHITE = [
  '\t',
  '\n',
  '\u000B',
  '\f',
  '\r',
  ' ',
  '\u00A0',
  '\u2003',
  '\u3000',
  '\uFEFF',
  '\u2028',
];
/** Characters JavaScript upper-cases to ASCII letters, and some it does not. */
const ODD = [
  '\u017F',
  '\u0131',
  '\u00DF',
  '\uFB05',
  '\uFB06',
  '\uFB01',
  '\u0130',
  '\u212A',
  'é',
  'ǅ',
  '😀',
  '\u200B',
];

/** A small deterministic generator (the same bodies each run). */
function* random(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    yield x;
  }
}

function samples(): string[] {
  const words = Object.values(KEYWORD_GROUPS).flat();
  const out = new Set<string>([
    '',
    ' ',
    'stop please',
    'STOP!',
    'S T O P',
    'x'.repeat(12),
  ]);
  for (const word of words) {
    out.add(word);
    out.add(word.toLowerCase());
    out.add(word[0] + word.slice(1).toLowerCase());
    for (const w of WHITE) out.add(`${w}${word.toLowerCase()}${w}`);
    out.add(`${word}${word}`);
    out.add(`${word} `.repeat(2));
  }
  out.add('\u017Ftop');
  out.add('\uFB06op');
  out.add('\uFB05OPALL');
  out.add('\u0131nfo');
  out.add('\u0130NFO');
  out.add('unsubscribe\u3000');
  out.add('\u3000unsubscribe!');
  // Random mixes of the keywords' letters, white space and odd characters.
  const letters = [...new Set(words.join('').toLowerCase() + words.join(''))];
  const alphabet = [...letters, ...WHITE, ...ODD];
  const rand = random(32);
  for (let i = 0; i < 3000; i++) {
    const base = words[rand.next().value % words.length]!;
    const chars = [...base.toLowerCase()];
    const edits = rand.next().value % 3;
    for (let e = 0; e < edits; e++) {
      const at = rand.next().value % (chars.length + 1);
      const c = alphabet[rand.next().value % alphabet.length]!;
      if (rand.next().value % 2) chars.splice(at, 0, c);
      else chars.splice(at, 1, c);
    }
    out.add(chars.join(''));
  }
  return [...out];
}

describe('inbound_keyword', () => {
  it('answers as keywordOf for every sample body', async () => {
    const bodies = samples();
    const rows = await server.app.db.query<{
      body: string;
      keyword: string | null;
    }>(
      'SELECT b AS body, inbound_keyword(b) AS keyword FROM unnest($1::text[]) AS b',
      [bodies],
    );
    const differing = rows.filter((row) => row.keyword !== keywordOf(row.body));
    expect(differing).toEqual([]);
    // The samples reach every group and plenty of non-keywords.
    const found = new Set(rows.map((row) => row.keyword));
    expect(found).toEqual(new Set(['STOP', 'START', 'HELP', null]));
    expect(rows.length).toBe(bodies.length);
  });
});
