import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new database on the PostgreSQL server of `serverUrl`, and its removal: each test file, and
 * each benchmark's server, starts from nothing (no rows, no queued jobs) another left. Empty,
 * or a copy of `template` (the tests' database migrated once per run, postgres-setup.ts): a copy
 * takes a fraction of a second where 29 migrations and pg-boss's schema took seconds.
 */
export async function scratchDatabase(
  serverUrl: string,
  prefix = 'test',
  template?: string,
): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(
      template
        ? `CREATE DATABASE ${name} TEMPLATE ${template}`
        : `CREATE DATABASE ${name}`,
    );
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      // pool.end() resolves before the server has closed its sessions; FORCE would kill them
      // and their clients would throw an uncaught "terminating connection". Wait for them.
      for (let attempt = 0; ; attempt++) {
        try {
          await c.query(`DROP DATABASE IF EXISTS ${name}`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt >= 50) {
            await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            break;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await c.end();
    },
  };
}
