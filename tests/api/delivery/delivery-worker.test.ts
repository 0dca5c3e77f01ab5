import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForMessage } from '../../support/delivery.ts';
import { onPostgres } from '../../support/engine.ts';
import { nothingWithin } from '../../support/eventually.ts';
import { httpClient } from '../../support/http.ts';
import {
  createClient,
  registerUser,
  defaultBalancePath,
} from '../../support/seed.ts';
import {
  launchServer,
  spawnServer,
  stopServer,
  tempDataDir,
  type SpawnedServer,
} from '../../support/spawn-server.ts';
import { ADMIN, migratedTemplateOf } from '../../support/start-server.ts';

/**
 * Accept-only API nodes and a delivery-only process (`npm run worker`) on one PostgreSQL; and the
 * configuration errors that keep the embedded database single-process.
 */
const WORKER = join(
  resolve(import.meta.dirname, '../../..'),
  'src/server/worker.ts',
);
const serverUrl = process.env.TEST_DATABASE_URL;
const processes: SpawnedServer[] = [];
const dropAfter: string[] = [];
afterAll(async () => {
  for (const p of processes) await stopServer(p, 'SIGKILL');
  if (serverUrl) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    for (const name of dropAfter) {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
    await admin.end();
  }
});

describe('configuration errors', () => {
  it('refuses DELIVERY_WORKERS=0 on the embedded database, and npm run worker without DATABASE_URL', async () => {
    const server = launchServer({
      DATA_DIR: tempDataDir('accept-only'),
      DELIVERY_WORKERS: '0',
    });
    const refused = await server;
    expect((await refused.exited).code).toBe(1);
    expect(refused.output()).toMatch(
      /DELIVERY_WORKERS: 0 \(accept only\) needs DATABASE_URL/,
    );
    const worker = await launchServer({}, WORKER);
    expect((await worker.exited).code).toBe(1);
    expect(worker.output()).toMatch(/npm run worker needs DATABASE_URL/);
  });
});

describe.skipIf(!onPostgres)('on PostgreSQL', () => {
  it('an accept-only node queues, npm run worker delivers, SIGTERM stops it cleanly', async () => {
    const name = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    // A copy of the run's migrated database rather than migrating a new one.
    const template = migratedTemplateOf(serverUrl!);
    await admin.query(
      `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`,
    );
    await admin.end();
    dropAfter.push(name);
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    const env = {
      DATABASE_URL: url.toString(),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    };
    const api = await spawnServer({ ...env, DELIVERY_WORKERS: '0' });
    processes.push(api);
    const owner = await registerUser(api.url);
    const client = await createClient(owner.http);
    await httpClient(api.url, {
      username: ADMIN.email,
      password: ADMIN.password,
    }).post(`${defaultBalancePath(client.id)}/freecredit`, {
      amount: 1,
    });
    const sent = await owner.http.post(
      `/api/clients/${client.id}/messages/sms`,
      {
        sender: 'Shop',
        recipient: '447700900123',
        body: 'delivered elsewhere',
      },
    );
    expect(sent.status).toBe(201);
    // Nothing delivers it on the API node (no workers): a node with workers would have in
    // about 200 ms (the simulator's delay), so it stays ACCEPTED for a whole second.
    await nothingWithin(1_000, async () => {
      const queued = await owner.http.get(
        `/api/clients/${client.id}/messages/${sent.body.id}`,
      );
      expect(queued.body.state).toBe('ACCEPTED');
    });

    const worker = await launchServer(
      { ...env, DELIVERY_WORKERS: '2' },
      WORKER,
    );
    processes.push(worker);
    const done = await waitForMessage(owner.http, client.id, sent.body.id);
    expect(done).toMatchObject({ state: 'DELIVERED', simulated: true });
    expect((await stopServer(worker, 'SIGTERM')).code).toBe(0);
  });
});
