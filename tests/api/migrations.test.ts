import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../src/server/db/client.ts';
import { ChangedMigrationError, migrate } from '../../src/server/db/migrate.ts';
import { launchServer, migratedDataDir } from '../support/spawn-server.ts';

/** A migrations folder of its own, as a URL ending in '/' (what migrate() takes). */
function migrationsDir(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'console-migrations-'));
  const write = (name: string, sql: string) =>
    writeFileSync(join(dir, name), sql);
  for (const [name, sql] of Object.entries(files)) write(name, sql);
  return {
    url: pathToFileURL(`${dir}/`),
    write,
    remove: () => rmSync(dir, { recursive: true }),
  };
}

describe('migrations', () => {
  it('applies new files once and refuses an applied file that was edited', async () => {
    const dir = migrationsDir({ '001-a.sql': 'CREATE TABLE a (x int);' });
    const db = await openPglite('memory://');
    try {
      expect(await migrate(db, dir.url)).toEqual(['001-a.sql']);
      expect(await migrate(db, dir.url)).toEqual([]);

      dir.write('001-a.sql', 'CREATE TABLE a (x int, y int);');
      dir.write('002-b.sql', 'CREATE TABLE b (x int);');
      const edited = migrate(db, dir.url);
      await expect(edited).rejects.toBeInstanceOf(ChangedMigrationError);
      await expect(edited).rejects.toThrow(
        /migration 001-a\.sql was changed after it was applied .* put the change in a new migration/,
      );
      // Nothing after the edited file was applied either.
      expect(
        await db.query(
          "SELECT 1 FROM schema_migrations WHERE name = '002-b.sql'",
        ),
      ).toEqual([]);

      dir.write('001-a.sql', 'CREATE TABLE a (x int);');
      expect(await migrate(db, dir.url)).toEqual(['002-b.sql']);
    } finally {
      await db.close();
      dir.remove();
    }
  });

  it('takes the checksum of a file applied before checksums were recorded', async () => {
    const dir = migrationsDir({ '001-a.sql': 'CREATE TABLE a (x int);' });
    const db = await openPglite('memory://');
    try {
      await db.exec(`CREATE TABLE schema_migrations (
        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
        CREATE TABLE a (x int);
        INSERT INTO schema_migrations (name) VALUES ('001-a.sql');`);
      expect(await migrate(db, dir.url)).toEqual([]);
      const [row] = await db.query<{ checksum: string }>(
        'SELECT checksum FROM schema_migrations',
      );
      expect(row!.checksum).toMatch(/^[0-9a-f]{64}$/);
      dir.write('001-a.sql', '-- edited\nCREATE TABLE a (x int);');
      await expect(migrate(db, dir.url)).rejects.toBeInstanceOf(
        ChangedMigrationError,
      );
    } finally {
      await db.close();
      dir.remove();
    }
  });

  it('stops the server at start when an applied migration differs from what was applied', async () => {
    const dataDir = await migratedDataDir('edited-migration');
    try {
      // As if 001-init.sql had been edited since it was applied: its recorded checksum differs.
      const db = await openPglite(join(dataDir, 'pgdata'));
      await db.query(
        "UPDATE schema_migrations SET checksum = repeat('0', 64) WHERE name = '001-init.sql'",
      );
      await db.close();
      const server = await launchServer({ DATA_DIR: dataDir });
      const { code } = await server.exited;
      expect(code).toBe(1);
      expect(server.output()).toMatch(
        /Cannot start: migration 001-init\.sql was changed after it was applied/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
