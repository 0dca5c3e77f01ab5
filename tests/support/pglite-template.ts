/**
 * Vitest global setup of the API project: one embedded database migrated once per run, dumped
 * to a file that every in-process test server starts from (start-server.ts), instead of each
 * running initdb and the migrations again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../src/server/db/client.ts';
import { migrate } from '../../src/server/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated embedded database's dump, a file of this run. */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const folder = mkdtempSync(join(tmpdir(), 'console-pglite-template-'));
  const file = join(folder, 'migrated.tar');
  const db = await openPglite('memory://');
  try {
    await migrate(db);
    const dump = await db.pglite!.dumpDataDir('none');
    writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await db.close();
  }
  project.provide('pgliteTemplate', file);
  return () => rmSync(folder, { recursive: true, force: true });
}
