import {
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  migratedDataDir,
  pruneTemplates,
  STALE_TEMPLATE_MS,
  staleTemplates,
  tempDataDir,
  templateName,
} from '../../support/spawn-server.ts';

/*
 * The migrated templates the API tests copy their DATA_DIR from (one per version of
 * migrations/) were never removed: every schema ever tested left 40 MB in /tmp. Those no run
 * has copied from for an hour go; the current one, and one another run still uses, stay.
 */

const HOUR = 60 * 60_000;

/** A folder `name` under `root` last modified `age` ms ago. */
function folder(root: string, name: string, age: number): string {
  const path = join(root, name);
  mkdirSync(join(path, 'pgdata'), { recursive: true });
  const then = new Date(Date.now() - age);
  utimesSync(path, then, then);
  return path;
}

describe('template pruning', () => {
  it('picks the templates of other versions unused for an hour, builds a killed run left, nothing else', () => {
    const root = tempDataDir('prune');
    folder(root, 'console-template-0123456789ab', 2 * HOUR); // current, however old
    folder(root, 'console-template-aaaaaaaaaaaa', 2 * HOUR); // an older schema's
    folder(root, 'console-template-bbbbbbbbbbbb', 10 * 60_000); // another run's, in use
    folder(root, 'console-template-building-Xy12Zw', 3 * HOUR); // a killed build
    folder(root, 'console-template-cccccccccccc.pruning-42', 2 * HOUR); // a killed prune
    folder(root, 'console-web-Ab12Cd', 5 * HOUR); // not a template
    folder(root, 'throwaway-pg-Ef34Gh', 5 * HOUR);

    expect(
      staleTemplates(root, 'console-template-0123456789ab').sort(),
    ).toEqual([
      'console-template-aaaaaaaaaaaa',
      'console-template-building-Xy12Zw',
      'console-template-cccccccccccc.pruning-42',
    ]);
    // The hour is the boundary: just under it, still in use.
    expect(
      staleTemplates(
        root,
        'console-template-0123456789ab',
        statSync(join(root, 'console-template-aaaaaaaaaaaa')).mtimeMs +
          STALE_TEMPLATE_MS -
          1,
      ),
    ).not.toContain('console-template-aaaaaaaaaaaa');

    pruneTemplates(root, 'console-template-0123456789ab');
    expect(readdirSync(root).sort()).toEqual([
      'console-template-0123456789ab',
      'console-template-bbbbbbbbbbbb',
      'console-web-Ab12Cd',
      'throwaway-pg-Ef34Gh',
    ]);
  });

  it('migratedDataDir prunes at its first call and marks its own template as in use', async () => {
    const stale = folder(
      tmpdir(),
      `console-template-${'f'.repeat(12)}`,
      2 * HOUR,
    );
    const dir = await migratedDataDir('pruning');
    expect(existsSync(join(dir, 'pgdata'))).toBe(true);
    expect(existsSync(stale)).toBe(false);

    // Its own template, copied from again, is touched: never stale while a run uses it.
    const template = join(tmpdir(), templateName());
    const then = new Date(Date.now() - 2 * HOUR);
    utimesSync(template, then, then);
    await migratedDataDir('pruning');
    expect(Date.now() - statSync(template).mtimeMs).toBeLessThan(HOUR);
  }, 120_000);
});
