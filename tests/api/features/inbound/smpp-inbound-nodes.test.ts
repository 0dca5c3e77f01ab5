import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../../support/engine.ts';
import { eventually } from '../../../support/eventually.ts';
import { smscBind } from '../../../support/fleet.ts';
import { scratchDatabase } from '../../../support/scratch-database.ts';
import { createClient, registerUser } from '../../../support/seed.ts';
import { startSmsc, type TestSmsc } from '../../../support/smsc.ts';
import {
  launchServer,
  stopServer,
  type SpawnedServer,
} from '../../../support/spawn-server.ts';
import {
  migratedTemplateOf,
  startServer,
  type TestServer,
} from '../../../support/start-server.ts';

/**
 * Several binds on one database: the delivery-only process (`npm run worker`) holds an SMPP
 * bind of its own, and the SMSC may deliver an inbound message on it: the worker stores it as
 * the API nodes do. And two nodes given the same parts at the same moment store one message.
 */
const WORKER = join(
  resolve(import.meta.dirname, '../../../..'),
  'src/server/worker.ts',
);
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe.skipIf(!onPostgres)(
  'on PostgreSQL, several binds on one database',
  () => {
    it("stores an inbound message received on the worker's bind, then stops cleanly", async () => {
      const serverUrl = process.env.TEST_DATABASE_URL!;
      const database = await scratchDatabase(
        serverUrl,
        'test',
        migratedTemplateOf(serverUrl),
      );
      cleanup.push(() => database.drop());
      // An accept-only API node (no bind) to make the client; the worker binds.
      const api: TestServer = await startServer({
        DATABASE_URL: database.url,
        DELIVERY_WORKERS: '0',
      });
      cleanup.push(() => api.close());
      const smsc: TestSmsc = await startSmsc();
      cleanup.push(() => smsc.close());
      const owner = await registerUser(api.url);
      const client = await createClient(owner.http);
      const number = '4477009004242';
      await api.app.db.query(
        'INSERT INTO numbers (number, client_id) VALUES ($1, $2)',
        [number, client.id],
      );

      const worker: SpawnedServer = await launchServer(
        {
          DATABASE_URL: database.url,
          DELIVERY_WORKERS: '1',
          ...smscBind(smsc),
        },
        WORKER,
      );
      cleanup.push(() => stopServer(worker, 'SIGKILL'));
      await eventually(
        () => smsc.sessionCount,
        (n) => n === 1,
        { what: "the worker's bind", timeout: 30_000 },
      );
      smsc.sendDeliverSm({
        source_addr: '447700900123',
        destination_addr: number,
        data_coding: 8,
        short_message: Buffer.from('Привет 👋', 'utf16le').swap16(),
      });
      await expect
        .poll(() => smsc.receiptAnswers.map((a) => a.status), {
          timeout: 10_000,
        })
        .toEqual([0]);
      expect(
        await api.app.db.query(
          `SELECT client_id, method, from_number, body, encoding
           FROM inbound_messages WHERE to_number = $1`,
          [number],
        ),
      ).toEqual([
        {
          client_id: client.id,
          method: 'MELROSE_SMPP',
          from_number: '447700900123',
          body: 'Привет 👋',
          encoding: 'UCS-2',
        },
      ]);
      expect((await stopServer(worker, 'SIGTERM')).code).toBe(0);
    });

    it('two nodes given every part of a message at once store it once', async () => {
      const serverUrl = process.env.TEST_DATABASE_URL!;
      const database = await scratchDatabase(
        serverUrl,
        'test',
        migratedTemplateOf(serverUrl),
      );
      cleanup.push(() => database.drop());
      const smsc: TestSmsc = await startSmsc();
      cleanup.push(() => smsc.close());
      const env = { DATABASE_URL: database.url, ...smscBind(smsc) };
      const nodes: TestServer[] = [];
      for (let i = 0; i < 2; i++) {
        const node = await startServer(env);
        cleanup.push(() => node.close());
        nodes.push(node);
      }
      const owner = await registerUser(nodes[0]!.url);
      const client = await createClient(owner.http);
      const number = '4477009004343';
      await nodes[0]!.app.db.query(
        'INSERT INTO numbers (number, client_id) VALUES ($1, $2)',
        [number, client.id],
      );
      await eventually(
        () => smsc.sessionCount,
        (n) => n === 2,
        { what: 'both binds' },
      );
      // The test SMSC sends each deliver_sm on every bound session: each part reaches both nodes
      // together, and both write it at the same moment.
      const texts = ['Part one, ', 'part two, ', 'part three.'];
      for (const part of [2, 3, 1]) {
        smsc.sendDeliverSm({
          source_addr: '447700900123',
          destination_addr: number,
          data_coding: 0,
          short_message: {
            udh: Buffer.from([5, 0x00, 3, 0x5a, 3, part]),
            message: texts[part - 1],
          },
        });
      }
      await expect
        .poll(() => smsc.receiptAnswers.map((a) => a.status), {
          timeout: 10_000,
        })
        .toEqual([0, 0, 0, 0, 0, 0]);
      expect(
        await nodes[1]!.app.db.query(
          `SELECT body, segments, complete FROM inbound_messages WHERE to_number = $1`,
          [number],
        ),
      ).toEqual([{ body: texts.join(''), segments: 3, complete: true }]);
    });
  },
);
