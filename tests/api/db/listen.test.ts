import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LISTEN_APPLICATION,
  listen,
  type Listener,
} from '../../../src/server/db/listen.ts';
import { onPostgres } from '../../support/engine.ts';
import {
  scratchDatabase,
  type ScratchDatabase,
} from '../../support/scratch-database.ts';

/**
 * The listeners of one process on one database share one LISTEN connection (issue 34: each idle
 * connection is a PostgreSQL backend of some 13 MB): each hears its own channel, joins and
 * leaves without disturbing the others, and all of them are told of a drop and of the
 * reconnect.
 */
describe.skipIf(!onPostgres)('LISTEN connection', () => {
  let database: ScratchDatabase;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'listen');
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  const connections = async () =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1`,
        [LISTEN_APPLICATION],
      )
    ).rows.map((row) => row.pid);

  function listener(channel: string, events: string[]): Listener {
    return listen(database.url, channel, {
      onNotify: (payload) => void events.push(payload),
      onListening: () => void events.push('listening'),
      onDown: () => void events.push('down'),
      onError: () => undefined,
    });
  }

  it('is one connection for every channel, each listener hearing its own', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const a = listener('listen_first', first);
    const b = listener('listen_second', second);
    try {
      await Promise.all([a.listening, b.listening]);
      const pids = await connections();
      expect(pids).toHaveLength(1);
      // A listener's queries (the queue alarm's look) run on that same connection.
      expect(
        await a.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'),
      ).toEqual([{ pid: pids[0] }]);
      await admin.query(`SELECT pg_notify('listen_first', 'one')`);
      await admin.query(`SELECT pg_notify('listen_second', 'two')`);
      await expect.poll(() => first).toEqual(['listening', 'one']);
      await expect.poll(() => second).toEqual(['listening', 'two']);

      // One more, joining the connection already up.
      const third: string[] = [];
      const c = listener('listen_first', third);
      await c.listening;
      expect(await connections()).toHaveLength(1);
      await admin.query(`SELECT pg_notify('listen_first', 'three')`);
      await expect.poll(() => third).toEqual(['listening', 'three']);
      await expect.poll(() => first).toEqual(['listening', 'one', 'three']);

      // Leaving: the others still hear, on the same connection.
      await c.close();
      await a.close();
      await admin.query(`SELECT pg_notify('listen_second', 'four')`);
      await expect.poll(() => second).toEqual(['listening', 'two', 'four']);
      await admin.query(`SELECT pg_notify('listen_first', 'unheard')`);
      expect(a.query('SELECT 1')).toBeUndefined();
      expect(await connections()).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
    // The last one gone, so is the connection.
    await expect.poll(connections).toEqual([]);
    expect(first).not.toContain('unheard');
  });

  it('tells every listener of a drop and of the reconnect', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const a = listener('listen_first', first);
    const b = listener('listen_second', second);
    try {
      await Promise.all([a.listening, b.listening]);
      const [before] = await connections();
      await admin.query('SELECT pg_terminate_backend($1)', [before]);
      const back = ['listening', 'down', 'listening'];
      await expect.poll(() => first, { timeout: 5_000 }).toEqual(back);
      await expect.poll(() => second, { timeout: 5_000 }).toEqual(back);
      const after = await connections();
      expect(after).toHaveLength(1);
      expect(after).not.toContain(before);
      await admin.query(`SELECT pg_notify('listen_first', 'one')`);
      await admin.query(`SELECT pg_notify('listen_second', 'two')`);
      await expect.poll(() => first).toEqual([...back, 'one']);
      await expect.poll(() => second).toEqual([...back, 'two']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
