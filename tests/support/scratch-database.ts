import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new, empty database on the PostgreSQL server of `serverUrl`, and its removal: each test
 * file, and each benchmark's server, starts from nothing (no rows, no queued jobs) another left.
 */
export async function scratchDatabase(
  serverUrl: string,
  prefix = 'test',
): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
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
