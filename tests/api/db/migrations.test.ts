import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openPglite, openPostgres } from '../../../src/server/db/client.ts';
import {
  ChangedMigrationError,
  migrate,
  NewerSchemaError,
} from '../../../src/server/db/migrate.ts';
import { onPostgres } from '../../support/engine.ts';
import { scratchDatabase } from '../../support/scratch-database.ts';
import { launchServer, migratedDataDir } from '../../support/spawn-server.ts';

/** A migrations folder of its own, as a URL ending in '/' (what migrate() takes). */
function migrationsDir(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'console-migrations-'));
  mkdirSync(join(dir, 'functions'));
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

  it('applies a function file after the versioned files, again when it changes, and it wins', async () => {
    const dir = migrationsDir({
      '001-a.sql': `CREATE TABLE a (x int);
        CREATE FUNCTION rule() RETURNS text LANGUAGE sql AS $$ SELECT 'of 001' $$;`,
      'functions/rule.sql': `CREATE OR REPLACE FUNCTION rule() RETURNS text
        LANGUAGE sql AS $$ SELECT 'current' $$;`,
    });
    const db = await openPglite('memory://');
    const rule = async () =>
      (await db.query<{ rule: string }>('SELECT rule()'))[0]!.rule;
    try {
      expect(await migrate(db, dir.url)).toEqual([
        '001-a.sql',
        'functions/rule.sql',
      ]);
      expect(await rule()).toBe('current');
      expect(await migrate(db, dir.url)).toEqual([]);

      // A rule change is a diff of its file: applied at the next start, no new migration.
      dir.write(
        'functions/rule.sql',
        `CREATE OR REPLACE FUNCTION rule() RETURNS text
        LANGUAGE sql AS $$ SELECT 'changed' $$;`,
      );
      expect(await migrate(db, dir.url)).toEqual(['functions/rule.sql']);
      expect(await rule()).toBe('changed');

      // A later versioned migration that writes the body anyway (and adds a column the file's
      // body may use) does not have the last word: the unchanged file is applied after it.
      dir.write(
        '002-b.sql',
        `ALTER TABLE a ADD COLUMN y int;
        CREATE OR REPLACE FUNCTION rule() RETURNS text LANGUAGE sql AS $$ SELECT 'of 002' $$;`,
      );
      expect(await migrate(db, dir.url)).toEqual([
        '002-b.sql',
        'functions/rule.sql',
      ]);
      expect(await rule()).toBe('changed');

      // Function files are not versioned migrations: schema_migrations' latest row stays the
      // schema's version.
      expect(
        await db.query('SELECT name FROM schema_migrations ORDER BY name'),
      ).toEqual([{ name: '001-a.sql' }, { name: '002-b.sql' }]);
      expect(
        await db.query(
          'SELECT name, after_migration FROM schema_functions ORDER BY name',
        ),
      ).toEqual([{ name: 'rule.sql', after_migration: '002-b.sql' }]);
    } finally {
      await db.close();
      dir.remove();
    }
  });

  it('applies a function file that calls one a later file creates, and names a broken file', async () => {
    const dir = migrationsDir({
      '001-a.sql': 'CREATE TABLE a (x int);',
      // A SQL-language body is checked at creation: helper() must exist first.
      'functions/a_caller.sql': `CREATE OR REPLACE FUNCTION a_caller() RETURNS int
        LANGUAGE sql AS $$ SELECT helper() + 1 $$;`,
      'functions/helper.sql': `CREATE OR REPLACE FUNCTION helper() RETURNS int
        LANGUAGE sql AS $$ SELECT 41 $$;`,
    });
    const db = await openPglite('memory://');
    try {
      expect(await migrate(db, dir.url)).toEqual([
        '001-a.sql',
        'functions/helper.sql',
        'functions/a_caller.sql',
      ]);
      expect(await db.query('SELECT a_caller() AS v')).toEqual([{ v: 42 }]);

      dir.write(
        'functions/helper.sql',
        `CREATE OR REPLACE FUNCTION helper() RETURNS int
        LANGUAGE sql AS $$ SELECT x FROM missing_table $$;`,
      );
      await expect(migrate(db, dir.url)).rejects.toThrow(
        /functions\/helper\.sql failed: .*missing_table/,
      );
      expect(await db.query('SELECT helper() AS v')).toEqual([{ v: 41 }]);
    } finally {
      await db.close();
      dir.remove();
    }
  });

  it('refuses a database migrated by a newer release, before changing anything', async () => {
    const dir = migrationsDir({ '001-a.sql': 'CREATE TABLE a (x int);' });
    const db = await openPglite('memory://');
    try {
      await migrate(db, dir.url);
      await db.query(
        "INSERT INTO schema_migrations (name, checksum) VALUES ('031-error-codes.sql', 'x')",
      );
      dir.write('002-b.sql', 'CREATE TABLE b (x int);');
      const newer = migrate(db, dir.url);
      await expect(newer).rejects.toBeInstanceOf(NewerSchemaError);
      await expect(newer).rejects.toThrow(
        "the database's schema is at 031 (031-error-codes.sql, written by a newer release); " +
          'this release knows up to 002: start the newer release or restore a backup taken ' +
          'before the upgrade.',
      );
      expect(
        await db.query(
          "SELECT 1 FROM schema_migrations WHERE name = '002-b.sql'",
        ),
      ).toEqual([]);
    } finally {
      await db.close();
      dir.remove();
    }
  });

  it('stops the server at start on a schema newer than it knows, with one message', async () => {
    const dataDir = await migratedDataDir('newer-schema');
    try {
      const db = await openPglite(join(dataDir, 'pgdata'));
      await db.query(
        "INSERT INTO schema_migrations (name, checksum) VALUES ('999-from-the-future.sql', 'x')",
      );
      await db.close();
      const server = await launchServer({ DATA_DIR: dataDir });
      const { code } = await server.exited;
      expect(code).toBe(1);
      const output = server.output();
      expect(output).toMatch(
        /Cannot start: the database's schema is at 999 \(999-from-the-future\.sql, written by a newer release\); this release knows up to \d{3}: start the newer release or restore a backup/,
      );
      expect(output.match(/Cannot start/g)).toHaveLength(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(!onPostgres)(
    'migrates once when two servers start together on one PostgreSQL, function files included',
    async () => {
      const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
      const [a, b] = await Promise.all([
        openPostgres(database.url, 4),
        openPostgres(database.url, 4),
      ]);
      try {
        const [byA, byB] = await Promise.all([migrate(a), migrate(b)]);
        // Each file applied by exactly one of them.
        const all = [...byA, ...byB].sort();
        expect(new Set(all).size).toBe(all.length);
        const functionFiles = readdirSync(
          new URL('../../../migrations/functions/', import.meta.url),
        ).filter((n) => n.endsWith('.sql'));
        expect(all.filter((n) => n.startsWith('functions/'))).toEqual(
          functionFiles.map((n) => `functions/${n}`).sort(),
        );
        expect(await migrate(a)).toEqual([]);
      } finally {
        await Promise.all([a.close(), b.close()]);
        await database.drop();
      }
    },
    60_000,
  );

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
