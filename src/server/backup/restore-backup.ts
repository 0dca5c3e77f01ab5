import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { getConstructionPlans } from 'pg-boss';
import { from as copyFrom } from 'pg-copy-streams';
import { PGBOSS_SCHEMA_VERSION } from '../delivery/queue.ts';
import { BackupReader, type VerifiedBackup } from './backup-file.ts';
import { qualified, quoteIdent, SYSTEM_SCHEMAS_SQL } from './take-backup.ts';

const MIGRATIONS_DIR = new URL('../../../migrations/', import.meta.url);

/** A restore that cannot go ahead (target not empty, backup of a newer release): nothing changed. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

export interface MigrationFile {
  name: string;
  sql: string;
}

/**
 * The migrations of this release that rebuild the backup's schema: exactly those the backup
 * had applied (the server's start applies the newer ones afterwards, as on any upgrade).
 * Refuses a backup of a release this one does not know, before anything is written.
 */
export async function migrationsFor(
  backup: VerifiedBackup,
  dir: URL = MIGRATIONS_DIR,
): Promise<MigrationFile[]> {
  const { header } = backup;
  const known = new Set((await readdir(dir)).filter((n) => n.endsWith('.sql')));
  const files: MigrationFile[] = [];
  for (const { name, checksum } of [...header.migrations].sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (!known.has(name)) {
      throw new RestoreRefusedError(
        `the backup was taken by a newer release: its migration ${name} is unknown to this ` +
          'one. Restore it with the release that took it (or a newer one).',
      );
    }
    const sql = await readFile(new URL(name, dir), 'utf8');
    const now = createHash('sha256').update(sql).digest('hex');
    if (checksum !== null && checksum !== now) {
      throw new RestoreRefusedError(
        `migration ${name} differs from the one the backup's database applied ` +
          `(checksum ${checksum.slice(0, 12)}… there, ${now.slice(0, 12)}… here)`,
      );
    }
    files.push({ name, sql });
  }
  if (
    header.queueSchemaVersion !== null &&
    header.queueSchemaVersion !== PGBOSS_SCHEMA_VERSION
  ) {
    throw new RestoreRefusedError(
      `the backup's job queue has pg-boss schema version ${header.queueSchemaVersion}, ` +
        `this release's is ${PGBOSS_SCHEMA_VERSION}: restore it with the release that took it, ` +
        'start that once, then upgrade',
    );
  }
  return files;
}

/** Refuses a database that holds any table, view or sequence outside PostgreSQL's own schemas. */
export async function assertEmptyDatabase(
  client: pg.Client,
  where: string,
): Promise<void> {
  const { rows } = await client.query<{ name: string; count: string }>(
    `SELECT min(n.nspname || '.' || c.relname) AS name, count(*) AS count
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') AND ${SYSTEM_SCHEMAS_SQL}`,
  );
  const count = Number(rows[0]?.count ?? 0);
  if (count > 0) {
    throw new RestoreRefusedError(
      `${where} is not empty (${count} tables, views or sequences, e.g. ${rows[0]?.name}): ` +
        'a restore only goes into an empty database, and changes nothing in this one',
    );
  }
}

/** pg-boss's install script without its own BEGIN/COMMIT: it runs inside the restore's transaction. */
function queueInstallSql(): string {
  const plan = getConstructionPlans('pgboss').trim();
  const begin = /^BEGIN;/;
  const commit = /COMMIT;$/;
  if (!begin.test(plan) || !commit.test(plan)) {
    throw new Error(
      "pg-boss's construction plan is not one BEGIN … COMMIT script any more",
    );
  }
  return plan.replace(begin, '').replace(commit, '');
}

export interface RestoreResult {
  tables: number;
  rows: number;
}

/**
 * Restores a verified backup into the empty database of `client`, in one transaction: the
 * backup's migrations and pg-boss's schema rebuild the empty tables (rows those scripts insert
 * are replaced by the backup's), the rows are loaded with COPY, then the sequences are set.
 * Triggers do not run on the loaded rows (they ran when the rows were first written); foreign
 * keys are checked. Any failure rolls everything back.
 */
export async function restoreBackup(
  client: pg.Client,
  backup: VerifiedBackup,
  migrations: MigrationFile[],
): Promise<RestoreResult> {
  const { header } = backup;
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query(`CREATE TABLE schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now(),
      checksum text
    )`);
    for (const migration of migrations) {
      try {
        await client.query(migration.sql);
      } catch (error) {
        throw new Error(
          `restoring the schema: migration ${migration.name} failed: ${(error as Error).message}`,
        );
      }
    }
    if (header.queueSchemaVersion !== null) {
      await client.query(queueInstallSql());
      // pg-boss's script limits its own transaction's idle time; this one streams for longer.
      await client.query('SET LOCAL idle_in_transaction_session_timeout = 0');
      await client.query('SET LOCAL lock_timeout = 0');
    }
    const names = header.tables.map((t) => qualified(t.schema, t.name));
    // Partitions the schema scripts did not create (pg-boss's per-day statistics).
    for (const table of header.tables) {
      const name = qualified(table.schema, table.name);
      const { rows } = await client.query<{ found: boolean }>(
        'SELECT to_regclass($1) IS NOT NULL AS found',
        [name],
      );
      if (rows[0]?.found) continue;
      if (!table.partitionOf) {
        throw new Error(
          `table ${table.schema}.${table.name} of the backup is not in the schema its ` +
            'migrations build',
        );
      }
      await client.query(
        `CREATE TABLE ${name} PARTITION OF ${table.partitionOf.parent} ${table.partitionOf.bound}`,
      );
    }
    if (names.length > 0) await client.query(`TRUNCATE ${names.join(', ')}`);
    for (const name of names) {
      await client.query(`ALTER TABLE ${name} DISABLE TRIGGER USER`);
    }
    // The file lists each table after those its foreign keys point to (takeBackup).
    const reader = new BackupReader(backup);
    let rows = 0;
    for (const table of header.tables) {
      const name = qualified(table.schema, table.name);
      if (table.rows === 0) continue;
      const columns = table.columns.map(quoteIdent).join(', ');
      const stream = client.query(
        copyFrom(`COPY ${name} (${columns}) FROM STDIN`),
      );
      await pipeline(Readable.from(reader.rows(table)), stream);
      if (stream.rowCount !== table.rows) {
        throw new Error(
          `${table.schema}.${table.name}: ${stream.rowCount} rows loaded, ${table.rows} in the backup`,
        );
      }
      rows += table.rows;
    }
    await reader.end();
    for (const sequence of header.sequences) {
      if (sequence.value === null) continue;
      await client.query('SELECT setval($1, $2, true)', [
        qualified(sequence.schema, sequence.name),
        sequence.value,
      ]);
    }
    // Deferred key checks (pg-boss's) run now: a table with pending ones cannot be altered.
    await client.query('SET CONSTRAINTS ALL IMMEDIATE');
    for (const name of names) {
      await client.query(`ALTER TABLE ${name} ENABLE TRIGGER USER`);
    }
    await client.query('COMMIT');
    return { tables: header.tables.length, rows };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
