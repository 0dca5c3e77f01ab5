import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTEN_APPLICATION } from '../../../src/server/db/listen.ts';
import { onPostgres } from '../../support/engine.ts';
import { eventually, nothingWithin } from '../../support/eventually.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * An idle node holds one connection to PostgreSQL, its LISTEN (issue 34: each connection is a
 * backend of some 13 MB resident): the pool closes what idles, and the queue alarm's looks go
 * over the LISTEN connection instead of reopening a pooled one every few seconds.
 */
describe.skipIf(!onPostgres)('an idle node', () => {
  const ALARM_MS = 300;
  let server: TestServer;
  let admin: pg.Client;
  let database: string;

  beforeAll(async () => {
    server = await startServer(
      {},
      // The alarm looks often; the inbound sweep (a pool query every 15 s) not within the test.
      { queueIdleCheckMs: ALARM_MS, inboundSweepMs: 600_000 },
    );
    const [row] = await server.app.db.query<{ database: string }>(
      'SELECT current_database() AS database',
    );
    database = row!.database;
    admin = new pg.Client({
      connectionString: process.env.TEST_DATABASE_URL,
      application_name: 'idle-connections-test',
    });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await server?.close();
  });

  /** The node's connections by application_name ('' for the server's own pool). */
  async function connections(): Promise<string[]> {
    const { rows } = await admin.query<{ name: string }>(
      `SELECT application_name AS name FROM pg_stat_activity
        WHERE datname = $1 ORDER BY 1`,
      [database],
    );
    return rows.map((row) => row.name);
  }

  it('closes its pooled connections and keeps them closed while the alarm looks', async () => {
    // The start's connections idle out (POOL_IDLE_MS, 5 s).
    await eventually(connections, (names) => !names.includes(''), {
      what: 'the pool to close its idle connections',
      timeout: 15_000,
    });
    expect(await connections()).toContain(LISTEN_APPLICATION);
    // A few of the alarm's looks: none reopens a pooled connection.
    await nothingWithin(ALARM_MS * 5, async () =>
      expect(await connections()).not.toContain(''),
    );
  });
});
