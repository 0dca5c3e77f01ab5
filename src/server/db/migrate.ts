import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { Db, Queryable } from './client.ts';

const MIGRATIONS_DIR = new URL('../../../migrations/', import.meta.url);
/** The current text of each SQL function (and its triggers), one file a function name. */
const FUNCTIONS_DIR = 'functions/';
/** Any constant: serialises migrations when several servers start on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 7_340_221;
/** PostgreSQL's undefined_function: a function file that calls one created by a later file. */
const UNDEFINED_FUNCTION = '42883';

/** An applied migration whose file no longer says what was applied: the start stops. */
export class ChangedMigrationError extends Error {
  constructor(name: string, recorded: string, now: string) {
    super(
      `migration ${name} was changed after it was applied (checksum ${recorded.slice(0, 12)}… ` +
        `when applied, ${now.slice(0, 12)}… now). An applied migration is never edited: ` +
        `restore the file and put the change in a new migration (a function body changes ` +
        `in its file of migrations/functions/).`,
    );
    this.name = 'ChangedMigrationError';
  }
}

/** The number a migration's name starts with ("029" of 029-record-delivery-in-one-pass.sql). */
function versionOf(name: string): string {
  return /^\d+/.exec(name)?.[0] ?? name;
}

/**
 * The database was migrated by a newer release (migrations this one has no file for): its code
 * would run on tables and functions it does not know, so the start stops before changing
 * anything.
 */
export class NewerSchemaError extends Error {
  constructor(databaseAt: string, known: string | undefined) {
    super(
      `the database's schema is at ${versionOf(databaseAt)} (${databaseAt}, written by a newer ` +
        `release); this release knows up to ${known ? versionOf(known) : 'none'}: start the ` +
        `newer release or restore a backup taken before the upgrade.`,
    );
    this.name = 'NewerSchemaError';
  }
}

function checksumOf(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

async function sqlFiles(dir: URL): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  } catch (error) {
    // A migrations folder without functions/ (the tests' own folders) has no function file.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function locked<T>(
  db: Db,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    return fn(tx);
  });
}

/**
 * Migrates the database in two steps, under one advisory lock (several servers may start at
 * once on one PostgreSQL):
 *
 * 1. The versioned files of `migrations/` (tables, indexes, data, a function's signature: a
 *    DROP FUNCTION), forward-only, in name order, each in its own transaction, recorded in
 *    schema_migrations with the SHA-256 of the file. schema_migrations holds these alone, so its
 *    latest row is the schema's version. A file whose checksum differs from the one recorded
 *    when it was applied stops the start (ChangedMigrationError): the database holds what the
 *    old text did, and nothing would apply the new one. Rows recorded before checksums existed
 *    take the file's checksum at the next start. A recorded migration without a file (a newer
 *    release migrated this database) stops the start before anything runs (NewerSchemaError).
 *
 * 2. Then the files of `migrations/functions/`: the current text of each SQL function and its
 *    triggers (CREATE OR REPLACE), recorded in schema_functions. A file is applied again when its
 *    checksum changed, or when a versioned migration was applied since it last was. Function
 *    files come after every versioned file, at every start: a versioned migration (an old one
 *    replayed on a fresh database still creates its function bodies of the time) never has the
 *    last word on a body, and a body that needs a column added by a versioned migration finds
 *    it there. Each file runs in its own transaction, in name order; one that calls a function
 *    a later file creates (a SQL-language body is checked at creation, plpgsql's are not) is
 *    tried again after the others.
 *
 * Returns the names applied now (function files as `functions/<name>.sql`).
 */
export async function migrate(
  db: Db,
  dir: URL = MIGRATIONS_DIR,
): Promise<string[]> {
  const files = await sqlFiles(dir);
  // Under the lock too: two servers creating the tables at once collide on PostgreSQL.
  const recorded = await locked(db, async (tx) => {
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text;
    CREATE TABLE IF NOT EXISTS schema_functions (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      after_migration text,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    return tx.query<{ name: string }>(
      'SELECT name FROM schema_migrations ORDER BY name',
    );
  });
  const known = new Set(files);
  const unknown = recorded.filter((row) => !known.has(row.name));
  if (unknown.length > 0) {
    throw new NewerSchemaError(unknown.at(-1)!.name, files.at(-1));
  }

  const applied: string[] = [];
  for (const name of files) {
    const sql = await readFile(new URL(name, dir), 'utf8');
    const checksum = checksumOf(sql);
    const done = await locked(db, async (tx) => {
      const [seen] = await tx.query<{ checksum: string | null }>(
        'SELECT checksum FROM schema_migrations WHERE name = $1',
        [name],
      );
      if (seen) {
        if (seen.checksum === null) {
          await tx.query(
            'UPDATE schema_migrations SET checksum = $2 WHERE name = $1',
            [name, checksum],
          );
        } else if (seen.checksum !== checksum) {
          throw new ChangedMigrationError(name, seen.checksum, checksum);
        }
        return false;
      }
      await tx.exec(sql);
      await tx.query(
        'INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)',
        [name, checksum],
      );
      return true;
    });
    if (done) applied.push(name);
  }

  const functionsDir = new URL(FUNCTIONS_DIR, dir);
  const latest = files.at(-1) ?? null;
  let pending = await sqlFiles(functionsDir);
  while (pending.length > 0) {
    const waiting: string[] = [];
    let lastError: unknown;
    for (const name of pending) {
      const sql = await readFile(new URL(name, functionsDir), 'utf8');
      const checksum = checksumOf(sql);
      try {
        const done = await locked(db, async (tx) => {
          const [seen] = await tx.query<{
            checksum: string;
            after_migration: string | null;
          }>(
            'SELECT checksum, after_migration FROM schema_functions WHERE name = $1',
            [name],
          );
          if (seen?.checksum === checksum && seen.after_migration === latest) {
            return false;
          }
          await tx.exec(sql);
          await tx.query(
            `INSERT INTO schema_functions (name, checksum, after_migration) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE
             SET checksum = EXCLUDED.checksum, after_migration = EXCLUDED.after_migration,
                 applied_at = now()`,
            [name, checksum, latest],
          );
          return true;
        });
        if (done) applied.push(`${FUNCTIONS_DIR}${name}`);
      } catch (error) {
        if ((error as { code?: string }).code !== UNDEFINED_FUNCTION) {
          throw new Error(
            `${FUNCTIONS_DIR}${name} failed: ${(error as Error).message}`,
            { cause: error },
          );
        }
        waiting.push(name);
        lastError = error;
      }
    }
    if (waiting.length === pending.length) {
      throw new Error(
        `${FUNCTIONS_DIR}${waiting[0]} failed: ${(lastError as Error).message}`,
        { cause: lastError },
      );
    }
    pending = waiting;
  }
  return applied;
}
