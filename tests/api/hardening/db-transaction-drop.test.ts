import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Db } from '../../../src/server/db/client.ts';
import { onPostgres } from '../../support/engine.ts';
import { freshDatabaseUrl } from '../../support/start-server.ts';

// A PostgreSQL restart that drops a connection in the middle of a transaction (between two of its
// statements) must fail that transaction, not end the process: a checked-out connection's
// 'error' event had no listener, and Node throws an unheard 'error'. PostgreSQL only.
const database = await freshDatabaseUrl();
const url = database.url;
let db: Db;
let killer: Db;

describe.skipIf(!onPostgres)(
  'a transaction whose connection is dropped',
  () => {
    beforeAll(async () => {
      db = await openPostgres(url!, 4);
      killer = await openPostgres(url!, 1);
    });
    afterAll(async () => {
      await db?.close();
      await killer?.close();
      await database.drop();
    });

    it('fails with the error, and the pool serves the next query on a new connection', async () => {
      const dropped = db.transaction(async (tx) => {
        const [row] = await tx.query<{ pid: number }>(
          'SELECT pg_backend_pid() AS pid',
        );
        await killer.query('SELECT pg_terminate_backend($1)', [row!.pid]);
        // Idle between statements until the server has closed the connection, as in a restart.
        await expect
          .poll(async () => {
            const [gone] = await killer.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1',
              [row!.pid],
            );
            return gone!.n;
          })
          .toBe(0);
        await tx.query('SELECT 1');
      });
      await expect(dropped).rejects.toThrow();
      const [answer] = await db.query<{ one: number }>('SELECT 1 AS one');
      expect(answer!.one).toBe(1);
    });
  },
);
