import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { Db } from './client.ts';

const MIGRATIONS_DIR = new URL('../../../migrations/', import.meta.url);
/** Any constant: serialises migrations when several servers start on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 7_340_221;

/** An applied migration whose file no longer says what was applied: the start stops. */
export class ChangedMigrationError extends Error {
  constructor(name: string, recorded: string, now: string) {
    super(
      `migration ${name} was changed after it was applied (checksum ${recorded.slice(0, 12)}… ` +
        `when applied, ${now.slice(0, 12)}… now). An applied migration is never edited: ` +
        `restore the file and put the change in a new migration (a function body changes ` +
        `with CREATE OR REPLACE FUNCTION in a new file).`,
    );
    this.name = 'ChangedMigrationError';
  }
}

function checksumOf(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

/**
 * Applies the forward-only SQL files of `migrations/` in name order, each in its own
 * transaction, recording them in schema_migrations with the SHA-256 of the file. A file whose
 * checksum differs from the one recorded when it was applied stops the start
 * (ChangedMigrationError): the database holds what the old text did, and nothing would apply
 * the new one. Rows recorded before checksums existed take the file's checksum at the next
 * start. Returns the names applied now.
 */
export async function migrate(
  db: Db,
  dir: URL = MIGRATIONS_DIR,
): Promise<string[]> {
  // Under the lock too: two servers creating the table at once collide on PostgreSQL.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text`);
  });
  const files = (await readdir(dir))
    .filter((name) => name.endsWith('.sql'))
    .sort();
  const applied: string[] = [];
  for (const name of files) {
    const sql = await readFile(new URL(name, dir), 'utf8');
    const checksum = checksumOf(sql);
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
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
  return applied;
}
