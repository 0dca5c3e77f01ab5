import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The README's lifecycle map ("A message's lifecycle") lists every SQL function of the
 * migrations with who calls it: a function added, renamed or dropped without the map fails here.
 */
const root = new URL('../../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const migrations = new URL('migrations/', root);

/** Functions the migrations leave defined (a later DROP FUNCTION removes one). */
function definedFunctions(): string[] {
  const defined = new Set<string>();
  for (const name of readdirSync(migrations)
    .filter((n) => n.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(new URL(name, migrations), 'utf8');
    for (const m of sql.matchAll(
      /\b(CREATE(?: OR REPLACE)? FUNCTION|DROP FUNCTION(?: IF EXISTS)?) (\w+)/g,
    )) {
      if (m[1]!.startsWith('DROP')) defined.delete(m[2]!);
      else defined.add(m[2]!);
    }
  }
  return [...defined].sort();
}

/** The first column of the map's table: `name` (migrations). */
function mappedFunctions(): string[] {
  const section = readme.slice(readme.indexOf("### A message's lifecycle"));
  expect(section.length).toBeGreaterThan(0);
  return [...section.matchAll(/^\| `(\w+)` \(/gm)].map((m) => m[1]!).sort();
}

describe("the README's lifecycle map", () => {
  it('lists exactly the SQL functions the migrations define', () => {
    expect(mappedFunctions()).toEqual(definedFunctions());
  });

  it('names every trigger the migrations create', () => {
    const sql = readdirSync(migrations)
      .filter((n) => n.endsWith('.sql'))
      .map((name) => readFileSync(new URL(name, migrations), 'utf8'))
      .join('\n');
    const triggers = [...sql.matchAll(/CREATE TRIGGER (\w+)/g)].map(
      (m) => m[1]!,
    );
    expect(triggers.length).toBeGreaterThan(0);
    for (const trigger of triggers) {
      expect(readme, trigger).toContain(`trigger \`${trigger}\``);
    }
  });
});
