import { randomInt, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../../support/engine.ts';
import { eventually } from '../../../support/eventually.ts';
import {
  createClient,
  giveCredit,
  registerUser,
  userHttp,
} from '../../../support/seed.ts';
import {
  spawnServer,
  stopServer,
  type SpawnedServer,
} from '../../../support/spawn-server.ts';
import { ADMIN, freshDatabaseUrl } from '../../../support/start-server.ts';

/**
 * CONTRACT "Two-way messaging": an opt-out survives a kill -9 between the inbound write and the
 * refusal of the next send, and so does the STOP's auto-reply: both are written by the inbound
 * write's own transaction (the optouts row, the keyword-reply job), nothing waits in a
 * process. The first node only accepts (DELIVERY_WORKERS=0), so the reply cannot have gone out
 * before the kill; the next node, started on the same database, refuses the send and answers
 * the STOP. Real processes on one PostgreSQL database.
 */
const TOKEN = 'gateway-inbound-token';
const servers: SpawnedServer[] = [];
const drops: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const server of servers) await stopServer(server, 'SIGKILL');
  for (const drop of drops) await drop();
});

describe.skipIf(!onPostgres)('an opt-out across nodes and a kill -9', () => {
  it('holds after the node that took the STOP is killed, and the reply still goes out once', async () => {
    const database = await freshDatabaseUrl();
    drops.push(() => database.drop());
    const env = {
      DATABASE_URL: database.url!,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      WORLD_SPECIAL_TOKEN: TOKEN,
    };
    const first = await spawnServer({ ...env, DELIVERY_WORKERS: '0' });
    servers.push(first);
    const owner = await registerUser(first.url);
    const client = await createClient(owner.http);
    await giveCredit(first.url, client.id, '1');
    const ours = String(randomInt(10 ** 10, 10 ** 11));
    const sender = `4477009${randomInt(10 ** 5, 10 ** 6)}`;
    // The numbers API is another helper's: the number is held by a row.
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      await pool.query(
        'INSERT INTO numbers (number, client_id) VALUES ($1, $2)',
        [ours, client.id],
      );
    } finally {
      await pool.end();
    }

    const stop = await fetch(
      `${first.url}/api/webhooks/world-special/inbound`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          id: randomUUID(),
          from: `+${sender}`,
          to: ours,
          text: ' Stop ',
        }),
      },
    );
    expect(stop.status).toBe(200);
    await stopServer(first, 'SIGKILL');

    const second = await spawnServer(env);
    servers.push(second);
    const http = userHttp(second.url, owner);
    const base = `/api/clients/${client.id}`;
    const refused = await http.post(`${base}/messages/sms`, {
      sender: 'Shop',
      recipient: sender,
      body: 'Hello',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('recipient_opted_out');
    expect((await http.get(`${base}/optouts`)).body.optouts).toEqual([
      { number: sender, source: 'keyword', dateCreated: expect.any(String) },
    ]);

    const replies = await eventually(
      async () =>
        (await http.get(`${base}/messages?recipient=${sender}`)).body
          .messages as { sender: string; state: string; body: string }[],
      (messages) => messages.some((m) => m.state === 'DELIVERED'),
      { what: 'the STOP answered by the next node', timeout: 30_000 },
    );
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({
      sender: ours,
      state: 'DELIVERED',
      body: 'You have been unsubscribed and will receive no more messages. Reply START to subscribe again.',
    });
    expect((await http.get(`${base}/balances/default`)).body.amount).toBe(0.95);

    // Every node at once: opted out on one node, refused on another by the very next send;
    // ended there, sent again on the first.
    const third = await spawnServer(env);
    servers.push(third);
    const other = userHttp(third.url, owner);
    const number = `4477008${randomInt(10 ** 5, 10 ** 6)}`;
    expect((await http.put(`${base}/optouts/${number}`)).status).toBe(200);
    const elsewhere = await other.post(`${base}/messages/sms`, {
      sender: 'Shop',
      recipient: number,
      body: 'Hello',
    });
    expect(elsewhere.status).toBe(403);
    expect((await other.delete(`${base}/optouts/${number}`)).status).toBe(204);
    const back = await http.post(`${base}/messages/sms`, {
      sender: 'Shop',
      recipient: number,
      body: 'Hello',
    });
    expect(back.status).toBe(201);
  }, 150_000);
});
