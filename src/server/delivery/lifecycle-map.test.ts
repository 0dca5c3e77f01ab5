import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The lifecycle map (migrations/functions/README.md) lists every SQL function of the function
 * files with who calls it: a function added, renamed or dropped without the map fails here, and
 * so does a caller named in the map that does not call it, or a call the map does not name.
 */
const root = new URL('../../../', import.meta.url);
const functionsDir = new URL('migrations/functions/', root);
const server = new URL('src/server/', root);
const map = readFileSync(new URL('README.md', functionsDir), 'utf8');

/** Each function file's SQL without its comments, by function name (the file's name). */
const files = new Map(
  readdirSync(functionsDir)
    .filter((name) => name.endsWith('.sql'))
    .map((name) => [
      name.slice(0, -'.sql'.length),
      readFileSync(new URL(name, functionsDir), 'utf8').replace(/--.*$/gm, ''),
    ]),
);

/** The map's rows: the function, and its "called by" cell. */
function rows(): { name: string; calledBy: string }[] {
  const section = map.slice(map.indexOf("## A message's lifecycle"));
  return [...section.matchAll(/^\| `(\w+)` \([^)]*\)\s*\|([^|]*)\|/gm)].map(
    (m) => ({ name: m[1]!, calledBy: m[2]!.trim() }),
  );
}

/** Whether `sql` calls `fn` (a call, not the name in a word or a comment). */
function calls(sql: string, fn: string): boolean {
  return new RegExp(`\\b${fn}\\(`).test(sql);
}

/** The TypeScript sources of the server that are not tests, relative to src/server/. */
function serverSources(): string[] {
  return readdirSync(server, { recursive: true })
    .map(String)
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'));
}

describe('the lifecycle map of migrations/functions/', () => {
  it('lists exactly the SQL functions of the function files, once each', () => {
    const mapped = rows().map((row) => row.name);
    expect(mapped.length).toBeGreaterThan(0);
    expect([...mapped].sort()).toEqual([...files.keys()].sort());
  });

  it('names every trigger the function files create', () => {
    const triggers = [...files.values()].flatMap((sql) =>
      [...sql.matchAll(/CREATE OR REPLACE TRIGGER (\w+)/g)].map((m) => m[1]!),
    );
    expect(triggers.length).toBeGreaterThan(0);
    for (const trigger of triggers) {
      expect(map, trigger).toContain(`trigger \`${trigger}\``);
    }
  });

  it('names callers that really call the function', () => {
    for (const { name, calledBy } of rows()) {
      // Backticked names in order, each with what precedes it ("trigger"); asides in
      // parentheses ("on `messages`") name no caller.
      const named = calledBy.replace(/\([^()]*\)/g, '');
      const tokens = [...named.matchAll(/(trigger )?`([^`]+)`/g)];
      expect(tokens.length, `${name}: no caller named`).toBeGreaterThan(0);
      let path: string | undefined;
      for (const [, trigger, token] of tokens) {
        const where = `${name} called by ${token}`;
        if (trigger) {
          const file = [...files.values()].find((sql) =>
            new RegExp(`CREATE OR REPLACE TRIGGER ${token}\\b`).test(sql),
          );
          expect(file, where).toBeDefined();
          expect(file!, where).toMatch(
            new RegExp(
              `CREATE OR REPLACE TRIGGER ${token}\\b[^;]*EXECUTE FUNCTION ${name}\\(\\)`,
            ),
          );
        } else if (files.has(token!)) {
          expect(calls(files.get(token!)!, name), where).toBe(true);
        } else if (token!.endsWith('.ts')) {
          path = token!;
          const source = new URL(path, server);
          expect(existsSync(source), where).toBe(true);
          expect(calls(readFileSync(source, 'utf8'), name), where).toBe(true);
        } else {
          // A TypeScript function of the path named just before it.
          expect(path, where).toBeDefined();
          expect(readFileSync(new URL(path!, server), 'utf8'), where).toMatch(
            new RegExp(`\\b${token}\\b`),
          );
        }
      }
    }
  });

  it('names every caller: each call in a function file or the server source is in the map', () => {
    const calledBy = new Map(rows().map((row) => [row.name, row.calledBy]));
    for (const [caller, sql] of files) {
      for (const fn of files.keys()) {
        if (fn !== caller && calls(sql, fn)) {
          expect(calledBy.get(fn), `${fn} is called by ${caller}`).toContain(
            `\`${caller}\``,
          );
        }
      }
    }
    for (const path of serverSources()) {
      const source = readFileSync(new URL(path, server), 'utf8');
      for (const fn of files.keys()) {
        if (calls(source, fn)) {
          expect(calledBy.get(fn), `${fn} is called by ${path}`).toContain(
            `\`${path}\``,
          );
        }
      }
    }
  });
});
