import { readdir, readFile } from 'node:fs/promises';
import type { Db } from './client.ts';

const MIGRATIONS_DIR = new URL('../../../migrations/', import.meta.url);
/** Any constant: serialises migrations when several servers start on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 7_340_221;

/**
 * Applies the forward-only SQL files of `migrations/` in name order, each in its own
 * transaction, recording them in schema_migrations. Returns the names applied now.
 */
export async function migrate(db: Db): Promise<string[]> {
  // Under the lock too: two servers creating the table at once collide on PostgreSQL.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const files = (await readdir(MIGRATIONS_DIR))
    .filter((name) => name.endsWith('.sql'))
    .sort();
  const applied: string[] = [];
  for (const name of files) {
    const sql = await readFile(new URL(name, MIGRATIONS_DIR), 'utf8');
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const seen = await tx.query(
        'SELECT 1 FROM schema_migrations WHERE name = $1',
        [name],
      );
      if (seen.length > 0) return false;
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [
        name,
      ]);
      return true;
    });
    if (done) applied.push(name);
  }
  return applied;
}
