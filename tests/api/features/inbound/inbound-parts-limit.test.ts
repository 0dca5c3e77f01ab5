// @also-on-pglite: the 10-minute store (store_overdue_inbound, join_inbound_parts) is plpgsql with advisory locks taken without waiting; PGlite runs it on its one connection.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Db } from '../../../../src/server/db/client.ts';
import { onPostgres } from '../../../support/engine.ts';
import { createClient, registerUser } from '../../../support/seed.ts';
import {
  ADMIN,
  freshDatabaseUrl,
  startServer,
  type TestServer,
} from '../../../support/start-server.ts';
import {
  spawnServer,
  stopServer,
  type SpawnedServer,
} from '../../../support/spawn-server.ts';
import {
  sendVonageInbound,
  vonageInboundFields,
} from '../../../support/vonage-server.ts';

/**
 * The 10-minute limit of a concatenated inbound message's parts (CONTRACT "Two-way messaging"):
 * parts still missing 10 minutes after the first arrived are stored as they are, complete false.
 * The limit is the contract's, not configurable: the tests set the parts' arrival back in the
 * table (which is all the sweep reads) and shorten only how often the server looks (its test
 * tuning). Two sweeps at once store a message once; a part taken before a kill -9 is joined
 * by the next server.
 */
const VONAGE = { VONAGE_API_KEY: 'key-1', VONAGE_API_SECRET: 'secret-1' };

let server: TestServer;
let clientId: string;

beforeAll(async () => {
  server = await startServer(VONAGE, { inboundSweepMs: 50 });
  const user = await registerUser(server.url);
  clientId = (await createClient(user.http)).id;
});
afterAll(async () => {
  await server?.close();
});

/** A fresh number held by the client (the numbers API is another helper's). */
async function holdNumber(db: Db = server.app.db, client = clientId) {
  const number = `44701${randomInt(1e6, 1e7)}`;
  await db.query('INSERT INTO numbers (number, client_id) VALUES ($1, $2)', [
    number,
    client,
  ]);
  return number;
}

const sender = () => `4477008${randomInt(1e5, 1e6)}`;

/** Sends part `part` of `total` of the message `ref` from `from` to `to`; expects 200. */
async function sendPart(
  url: string,
  from: string,
  to: string,
  ref: number,
  total: number,
  part: number,
) {
  const fields = vonageInboundFields({
    from,
    to,
    text: `[${part}/${total}]`,
    concat: { ref, total, part },
  });
  const answer = await sendVonageInbound(
    `${url}/api/webhooks/vonage/inbound`,
    fields,
    'POST',
  );
  expect(answer.status).toBe(200);
  return fields;
}

async function messagesTo(number: string, db = server.app.db) {
  return db.query<{
    body: string;
    segments: number;
    complete: boolean;
    provider_message_id: string | null;
  }>(
    `SELECT body, segments, complete, provider_message_id FROM inbound_messages
     WHERE to_number = $1 ORDER BY date_received, body`,
    [number],
  );
}

/** Sets the waiting parts to `number` back by `minutes`, as if they had arrived then. */
async function age(number: string, minutes: number, db = server.app.db) {
  await db.query(
    `UPDATE inbound_parts SET date_received = date_received - make_interval(mins => $2)
     WHERE to_number = $1 AND message_id IS NULL`,
    [number, minutes],
  );
}

async function metric(line: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

describe('parts still missing after 10 minutes', () => {
  it('are stored as they are, complete false, in part order; a younger message keeps waiting', async () => {
    const number = await holdNumber();
    const from = sender();
    const before = await metric('sms_inbound_total{method="VONAGE_SMS"}');
    const third = await sendPart(server.url, from, number, 31, 4, 3);
    const first = await sendPart(server.url, from, number, 31, 4, 1);
    // Another message's parts, 9 minutes old: within the limit.
    await sendPart(server.url, from, number, 32, 2, 2);
    await age(number, 9);
    // Those of message 31 are over it.
    await server.app.db.query(
      `UPDATE inbound_parts SET date_received = date_received - interval '2 minutes'
       WHERE to_number = $1 AND reference = 31`,
      [number],
    );
    await expect.poll(() => messagesTo(number)).toHaveLength(1);
    const [stored] = await messagesTo(number);
    expect(stored).toEqual({
      body: '[1/4][3/4]',
      segments: 2,
      complete: false,
      provider_message_id: first.messageId,
    });
    // The same sweep saw message 32 and left it.
    const waiting = await server.app.db.query<{ reference: number }>(
      'SELECT reference FROM inbound_parts WHERE to_number = $1 AND message_id IS NULL',
      [number],
    );
    expect(waiting).toEqual([{ reference: 32 }]);
    await expect
      .poll(() => metric('sms_inbound_total{method="VONAGE_SMS"}'))
      .toBe(before + 1);
    // A stored part delivered again is still a duplicate.
    const again = await sendVonageInbound(
      `${server.url}/api/webhooks/vonage/inbound`,
      third,
      'GET',
    );
    expect(again.status).toBe(200);
    expect(await messagesTo(number)).toHaveLength(1);
  });

  it('are dropped and counted unrouted when nobody holds the number any more', async () => {
    const number = await holdNumber();
    await sendPart(server.url, sender(), number, 7, 2, 1);
    const before = await metric('sms_inbound_unrouted_total');
    await server.app.db.query('DELETE FROM numbers WHERE number = $1', [
      number,
    ]);
    await age(number, 11);
    await expect
      .poll(() => metric('sms_inbound_unrouted_total'))
      .toBe(before + 1);
    expect(await messagesTo(number)).toEqual([]);
    const left = await server.app.db.query(
      'SELECT 1 FROM inbound_parts WHERE to_number = $1',
      [number],
    );
    expect(left).toEqual([]);
  });

  it.skipIf(!onPostgres)(
    'are stored once when several sweeps run at once (the nodes of a fleet)',
    async () => {
      const number = await holdNumber();
      const groups = 60;
      for (let ref = 0; ref < groups; ref++) {
        await sendPart(server.url, sender(), number, ref, 2, 1 + (ref % 2));
      }
      await age(number, 11);
      // Four sweeps on four connections, beside the server's own every 50 ms.
      const sweeps = await Promise.all(
        Array.from({ length: 4 }, () =>
          server.app.db.query<{ r_outcome: string }>(
            "SELECT * FROM store_overdue_inbound(interval '10 minutes', interval '1 day')",
          ),
        ),
      );
      await expect
        .poll(async () => (await messagesTo(number)).length)
        .toBe(groups);
      const stored = await messagesTo(number);
      expect(stored.every((m) => !m.complete && m.segments === 1)).toBe(true);
      expect(sweeps.flat().every((row) => row.r_outcome === 'stored')).toBe(
        true,
      );
      expect(sweeps.flat().length).toBeLessThanOrEqual(groups);
    },
  );
});

describe.skipIf(!onPostgres)('a part taken before a kill -9', () => {
  let database: { url?: string; drop(): Promise<void> };
  let db: Db;
  const servers: SpawnedServer[] = [];

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    db = await openPostgres(database.url!, 2);
  });
  afterAll(async () => {
    for (const s of servers) await stopServer(s, 'SIGKILL');
    await db?.close();
    await database?.drop();
  });

  it('is joined by the next server, and an overdue one is stored by it', async () => {
    const env = {
      ...VONAGE,
      DATABASE_URL: database.url!,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    };
    const first = await spawnServer(env);
    servers.push(first);
    const owner = await registerUser(first.url);
    const client = await createClient(owner.http);
    const number = await holdNumber(db, client.id);
    const from = sender();
    await sendPart(first.url, from, number, 90, 2, 2);
    await sendPart(first.url, from, number, 91, 3, 1);
    await stopServer(first, 'SIGKILL');

    const second = await spawnServer(env);
    servers.push(second);
    await sendPart(second.url, from, number, 90, 2, 1);
    expect(await messagesTo(number, db)).toEqual([
      expect.objectContaining({
        body: '[1/2][2/2]',
        complete: true,
        segments: 2,
      }),
    ]);
    // Message 91 is overdue: the new server's sweep (every 15 s) stores it.
    await age(number, 11, db);
    await expect
      .poll(async () => (await messagesTo(number, db)).length, {
        timeout: 30_000,
      })
      .toBe(2);
    expect((await messagesTo(number, db))[1]).toMatchObject({
      body: '[1/3]',
      complete: false,
      segments: 1,
    });
  });
});
