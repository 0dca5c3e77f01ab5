// @also-on-pglite: the function files applied and each transition run on PGlite (PostgreSQL 18) too, not only on the server of TEST_DATABASE_URL.
import { randomInt, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  openPglite,
  openPostgres,
  type Db,
} from '../../../src/server/db/client.ts';
import { migrate } from '../../../src/server/db/migrate.ts';
import { startQueue } from '../../../src/server/delivery/queue.ts';
import { freshDatabaseUrl } from '../../support/start-server.ts';

/**
 * The SQL functions of migrations/functions/ on a migrated database: the database holds exactly
 * what the files create, and each transition on prepared rows, one a test (as
 * src/server/delivery/policy.test.ts does for the TypeScript half). The functions that write
 * pg-boss's jobs need the queue's schema and queues: pg-boss installs them as the server does
 * at start (startQueue, no workers), then stops.
 */
const MIGRATIONS = new URL('../../../migrations/', import.meta.url);
const FUNCTIONS = new URL('functions/', MIGRATIONS);
const files = new Map(
  readdirSync(FUNCTIONS)
    .filter((name) => name.endsWith('.sql'))
    .map((name) => [name, readFileSync(new URL(name, FUNCTIONS), 'utf8')]),
);

let db: Db;
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await freshDatabaseUrl();
  drop = database.drop;
  if (database.url) {
    db = await openPostgres(database.url);
    await migrate(db);
  } else {
    db = await openPglite(
      'memory://',
      new Blob([readFileSync(inject('pgliteTemplate'))]),
    );
  }
  const quiet = () => undefined;
  const boss = await startQueue({
    databaseUrl: database.url,
    db,
    workers: 0,
    logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
  await boss.stop({ graceful: false });
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

/** The functions of schema public that are not an extension's, as name(arguments) → text. */
async function liveFunctions(): Promise<Map<string, string>> {
  const rows = await db.query<{ key: string; def: string }>(
    `SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS key,
            pg_get_functiondef(p.oid) AS def
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = 'public'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d
                       WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
                         AND d.deptype = 'e')`,
  );
  return new Map(rows.map((row) => [row.key, row.def]));
}

async function liveTriggers(): Promise<Map<string, string>> {
  const rows = await db.query<{ name: string; def: string }>(
    `SELECT t.tgname AS name, pg_get_triggerdef(t.oid) AS def
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE NOT t.tgisinternal AND n.nspname = 'public'`,
  );
  return new Map(rows.map((row) => [row.name, row.def]));
}

describe('migrations/functions/ and a migrated database', () => {
  it('holds exactly the functions and triggers the files create, each in the file of its name', async () => {
    const functions = await liveFunctions();
    const created = [...files].flatMap(([file, sql]) =>
      [...sql.matchAll(/^CREATE OR REPLACE FUNCTION (\w+)\(/gm)].map((m) => {
        expect(`${m[1]}.sql`, `${file} creates ${m[1]}`).toBe(file);
        return m[1]!;
      }),
    );
    // Every live function (each overload) is created by its file, and nothing else is live.
    expect(
      [...functions.keys()].map((key) => key.split('(')[0]).sort(),
    ).toEqual(created.sort());
    const triggers = [...files.values()].flatMap((sql) =>
      [...sql.matchAll(/^CREATE OR REPLACE TRIGGER (\w+)/gm)].map((m) => m[1]!),
    );
    expect([...(await liveTriggers()).keys()].sort()).toEqual(triggers.sort());
  });

  it('is what the files say: applying each file again changes no definition', async () => {
    const functions = await liveFunctions();
    const triggers = await liveTriggers();
    for (const [file, sql] of files) {
      await db.exec(sql);
      expect(await liveFunctions(), file).toEqual(functions);
      expect(await liveTriggers(), file).toEqual(triggers);
    }
  });

  it('versioned migrations after 029 define no function: a body lives in its file', () => {
    for (const name of readdirSync(MIGRATIONS)) {
      if (!name.endsWith('.sql') || name.slice(0, 3) <= '029') continue;
      const sql = readFileSync(new URL(name, MIGRATIONS), 'utf8').replace(
        /--.*$/gm,
        '',
      );
      expect(sql, name).not.toMatch(/CREATE\s+(OR\s+REPLACE\s+)?FUNCTION/i);
      expect(sql, name).not.toMatch(/CREATE\s+(OR\s+REPLACE\s+)?TRIGGER/i);
    }
  });
});

/** A user, their client and its balance of 10 EUR: a world of its own for each test. */
async function client(balance = '10') {
  const userId = randomUUID();
  const clientId = randomUUID();
  await db.query(
    `INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`,
    [userId, `${userId}@example.com`],
  );
  await db.query(
    `INSERT INTO clients (id, user_id, name, secret_hash) VALUES ($1, $2, 'Shop', 'x')`,
    [clientId, userId],
  );
  await db.query(
    `INSERT INTO balances (id, client_id, currency, amount) VALUES ($1, $1, 'EUR', $2)`,
    [clientId, balance],
  );
  const message = async (
    state: string,
    extra: { sendAt?: string; ageSeconds?: number } = {},
  ) => {
    const [row] = await db.query<{ id: string }>(
      `INSERT INTO messages (client_id, user_id, sender, recipient, body, state, encoding,
                             segments, price, currency, price_per_segment, send_at,
                             date_updated)
       VALUES ($1, $2, 'Shop', '447700900123', 'Hello', $3, 'GSM-7', 1, 0.05, 'EUR', 0.05,
               $4, now() - make_interval(secs => $5))
       RETURNING id`,
      [clientId, userId, state, extra.sendAt ?? null, extra.ageSeconds ?? 0],
    );
    return row!.id;
  };
  const states = async (ids: string[]) =>
    (
      await db.query<{ state: string }>(
        'SELECT state FROM messages WHERE id = ANY($1::uuid[]) ORDER BY array_position($1::uuid[], id)',
        [ids],
      )
    ).map((row) => row.state);
  const amount = async () =>
    (
      await db.query<{ amount: string }>(
        'SELECT amount::text FROM balances WHERE id = $1',
        [clientId],
      )
    )[0]!.amount;
  const refunds = async () =>
    db.query<{ message_id: string; amount: string; balance_after: string }>(
      `SELECT message_id, amount::text, balance_after::text FROM balance_ledger
       WHERE client_id = $1 AND reason = 'REFUND' ORDER BY id`,
      [clientId],
    );
  return { clientId, userId, message, states, amount, refunds };
}

/** A submitted message: its SUBMITTED attempt on MELROSE_SMPP and its one part, claimed. */
async function submit(
  world: Awaited<ReturnType<typeof client>>,
  ageSeconds = 0,
): Promise<{ id: string; part: string }> {
  const id = await world.message('ACCEPTED');
  const part = `smsc-${randomUUID()}`;
  await db.query('SELECT record_attempts($1::jsonb, $2::uuid[])', [
    JSON.stringify([
      {
        messageId: id,
        method: 'MELROSE_SMPP',
        state: 'SUBMITTED',
        providerMessageIds: [part],
        route: ['MELROSE_SMPP'],
      },
    ]),
    [],
  ]);
  if (ageSeconds > 0) {
    await db.query(
      `UPDATE messages SET date_updated = now() - make_interval(secs => $2) WHERE id = $1`,
      [id, ageSeconds],
    );
  }
  return { id, part };
}

const attempts = (id: string) =>
  db.query<{ method: string; state: string; error: string | null }>(
    'SELECT method, state, error FROM message_attempts WHERE message_id = $1 ORDER BY id',
    [id],
  );

describe('the transitions, one a test', () => {
  it('record_attempts: ACCEPTED → SUBMITTED, the attempt written, the part claimed, the route fixed', async () => {
    const world = await client();
    const { id, part } = await submit(world);
    expect(await world.states([id])).toEqual(['SUBMITTED']);
    expect(await attempts(id)).toEqual([
      { method: 'MELROSE_SMPP', state: 'SUBMITTED', error: null },
    ]);
    const [row] = await db.query(
      `SELECT m.delivery_method, m.route, p.message_id = m.id AS claimed
       FROM messages m JOIN message_parts p ON p.provider_message_id = $2
       WHERE m.id = $1`,
      [id, part],
    );
    expect(row).toEqual({
      delivery_method: 'MELROSE_SMPP',
      route: ['MELROSE_SMPP'],
      claimed: true,
    });
  });

  it("record_attempts with the batch's receipt: ACCEPTED → DELIVERED in one statement", async () => {
    const world = await client();
    const id = await world.message('ACCEPTED');
    const part = `smsc-${randomUUID()}`;
    const [{ rest }] = (await db.query(
      'SELECT record_attempts($1::jsonb, $2::uuid[], $3::jsonb) AS rest',
      [
        JSON.stringify([
          {
            messageId: id,
            method: 'MELROSE_SMPP',
            state: 'SUBMITTED',
            providerMessageIds: [part],
          },
        ]),
        [],
        JSON.stringify([
          {
            method: 'MELROSE_SMPP',
            providerMessageId: part,
            state: 'DELIVERED',
          },
        ]),
      ],
    )) as [{ rest: unknown }];
    expect(rest).toEqual([]);
    expect(await world.states([id])).toEqual(['DELIVERED']);
    expect(await attempts(id)).toEqual([
      { method: 'MELROSE_SMPP', state: 'DELIVERED', error: null },
    ]);
  });

  it('fail_messages: ACCEPTED → FAILED and the price back as one REFUND row, exactly once', async () => {
    const world = await client('9.95');
    const accepted = await world.message('ACCEPTED');
    const submitted = (await submit(world)).id;
    const failed = await db.query<{ id: string }>(
      'SELECT fail_messages($1::uuid[]) AS id',
      [[accepted, submitted]],
    );
    expect(failed).toEqual([{ id: accepted }]);
    expect(await world.states([accepted, submitted])).toEqual([
      'FAILED',
      'SUBMITTED',
    ]);
    expect(await world.refunds()).toEqual([
      { message_id: accepted, amount: '0.0500', balance_after: '10.0000' },
    ]);
    expect(await world.amount()).toBe('10.0000');
    // Again (a job handed back after a crash): nothing moves, nothing refunded twice.
    expect(
      await db.query('SELECT fail_messages($1::uuid[]) AS id', [[accepted]]),
    ).toEqual([]);
    expect(await world.refunds()).toHaveLength(1);
    expect(await world.amount()).toBe('10.0000');
  });

  it('cancel_messages: SCHEDULED → CANCELED and the refund; one already released stays', async () => {
    const world = await client('9.90');
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await world.message('SCHEDULED', { sendAt: later });
    const released = await world.message('ACCEPTED');
    const canceled = await db.query<{ id: string }>(
      'SELECT cancel_messages($1::uuid[]) AS id',
      [[scheduled, released]],
    );
    expect(canceled).toEqual([{ id: scheduled }]);
    expect(await world.states([scheduled, released])).toEqual([
      'CANCELED',
      'ACCEPTED',
    ]);
    expect(await world.refunds()).toEqual([
      { message_id: scheduled, amount: '0.0500', balance_after: '9.9500' },
    ]);
    expect(await world.amount()).toBe('9.9500');
  });

  it('release_messages: SCHEDULED → ACCEPTED when its sendAt has come; not before, not once canceled', async () => {
    const world = await client();
    const due = await world.message('SCHEDULED', {
      sendAt: new Date(Date.now() - 1000).toISOString(),
    });
    const notYet = await world.message('SCHEDULED', {
      sendAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const canceled = await world.message('CANCELED', {
      sendAt: new Date(Date.now() - 1000).toISOString(),
    });
    const released = await db.query(
      `SELECT message_id, state, released, scheduled
       FROM release_messages($1::uuid[], $2::uuid[])`,
      [[due, notYet, canceled], [randomUUID()]],
    );
    expect(released).toEqual([
      { message_id: due, state: 'ACCEPTED', released: true, scheduled: true },
    ]);
    expect(await world.states([due, notYet, canceled])).toEqual([
      'ACCEPTED',
      'SCHEDULED',
      'CANCELED',
    ]);
  });

  it('apply_receipts → settle_messages: SUBMITTED → DELIVERED once every part has its receipt', async () => {
    const world = await client();
    const { id, part } = await submit(world);
    const [{ fresh }] = (await db.query(
      'SELECT apply_receipts($1::jsonb) AS fresh',
      [
        JSON.stringify([
          {
            method: 'MELROSE_SMPP',
            providerMessageId: part,
            state: 'DELIVERED',
          },
        ]),
      ],
    )) as [{ fresh: number }];
    expect(fresh).toBe(1);
    expect(await world.states([id])).toEqual(['DELIVERED']);
    expect(await attempts(id)).toEqual([
      { method: 'MELROSE_SMPP', state: 'DELIVERED', error: null },
    ]);
  });

  it('settle_messages: UNDELIVERED with the receipt’s error, not before every part has one', async () => {
    const world = await client();
    const { id, part } = await submit(world);
    await db.query(
      `UPDATE message_parts SET state = 'UNDELIVERED', error = 'absent subscriber',
              date_receipt = now()
       WHERE method = 'MELROSE_SMPP' AND provider_message_id = $1`,
      [part],
    );
    await db.query(
      `UPDATE message_attempts SET parts = 2 WHERE message_id = $1`,
      [id],
    );
    await db.query('SELECT settle_messages($1::uuid[])', [[id]]);
    expect(await world.states([id])).toEqual(['SUBMITTED']);
    await db.query(
      `UPDATE message_attempts SET parts = 1 WHERE message_id = $1`,
      [id],
    );
    await db.query('SELECT settle_messages($1::uuid[])', [[id]]);
    expect(await world.states([id])).toEqual(['UNDELIVERED']);
    expect(await attempts(id)).toEqual([
      {
        method: 'MELROSE_SMPP',
        state: 'UNDELIVERED',
        error: 'absent subscriber',
      },
    ]);
  });

  it('expire_messages: SUBMITTED → EXPIRED past the validity, no refund; a recent one stays', async () => {
    const world = await client();
    const old = (await submit(world, 7200)).id;
    const recent = (await submit(world)).id;
    const expired = await db.query<{ id: string }>(
      `SELECT id FROM expire_messages(interval '1 hour', 1000) AS id
       WHERE id = ANY($1::uuid[])`,
      [[old, recent]],
    );
    expect(expired).toEqual([{ id: old }]);
    expect(await world.states([old, recent])).toEqual(['EXPIRED', 'SUBMITTED']);
    expect(await attempts(old)).toEqual([
      {
        method: 'MELROSE_SMPP',
        state: 'EXPIRED',
        error: 'no receipt within the validity period',
      },
    ]);
    expect(await world.refunds()).toEqual([]);
  });

  it('message_parts_drop_foreign_receipt: a submit claiming a part drops an unsigned receipt naming another message', async () => {
    const world = await client();
    const other = await world.message('ACCEPTED');
    const part = `smsc-${randomUUID()}`;
    // An unauthenticated receipt waits on the part, naming `other` (a forger's guess).
    await db.query('SELECT apply_receipts($1::jsonb)', [
      JSON.stringify([
        {
          method: 'MELROSE_SMPP',
          providerMessageId: part,
          state: 'DELIVERED',
          unauthenticated: { clientRef: other },
        },
      ]),
    ]);
    const id = await world.message('ACCEPTED');
    await db.query('SELECT record_attempts($1::jsonb, $2::uuid[])', [
      JSON.stringify([
        {
          messageId: id,
          method: 'MELROSE_SMPP',
          state: 'SUBMITTED',
          providerMessageIds: [part],
        },
      ]),
      [],
    ]);
    expect(await world.states([id, other])).toEqual(['SUBMITTED', 'ACCEPTED']);
    const [row] = await db.query(
      `SELECT message_id, state FROM message_parts
       WHERE method = 'MELROSE_SMPP' AND provider_message_id = $1`,
      [part],
    );
    expect(row).toEqual({ message_id: id, state: null });
  });
});

/** The jobs of `queue` that name message `id`. */
const jobs = (queue: string, id: string) =>
  db.query<{ state: string; later: boolean; data: Record<string, unknown> }>(
    `SELECT state::text, start_after > now() + interval '5 seconds' AS later, data
     FROM pgboss.job WHERE name = $1 AND data->>'messageId' = $2
     ORDER BY created_on, id`,
    [queue, id],
  );

describe('the transitions that write jobs', () => {
  it('send_sms_batch: → ACCEPTED, the debit, its SMS ledger row, its job and its answer', async () => {
    const world = await client();
    const [row] = await db.query<{
      refusal: string | null;
      answer: string;
    }>(`SELECT refusal, answer FROM send_sms_batch($1::jsonb)`, [
      JSON.stringify([
        {
          clientId: world.clientId,
          ownerId: world.userId,
          defaultPrice: '0.05',
          sender: 'Shop',
          recipient: '447700900123',
          body: 'Hello',
          reference: 'r1',
          encoding: 'GSM-7',
          segments: 2,
          actorUserId: world.userId,
          key: null,
          hash: null,
          sendAt: null,
        },
      ]),
    ]);
    expect(row!.refusal).toBeNull();
    const answer = JSON.parse(row!.answer) as Record<string, unknown>;
    expect(answer).toMatchObject({
      clientId: world.clientId,
      state: 'ACCEPTED',
      price: 0.1,
      reference: 'r1',
    });
    const id = answer.id as string;
    expect(await world.states([id])).toEqual(['ACCEPTED']);
    expect(await world.amount()).toBe('9.9000');
    expect(
      await db.query(
        `SELECT reason, amount::text, balance_after::text FROM balance_ledger
         WHERE message_id = $1`,
        [id],
      ),
    ).toEqual([{ reason: 'SMS', amount: '-0.1000', balance_after: '9.9000' }]);
    expect(await jobs('sms-delivery', id)).toMatchObject([
      { state: 'created', later: false },
    ]);
  });

  it('send_sms_batch: a send the balance cannot pay is refused and writes nothing', async () => {
    const world = await client('0.01');
    const [row] = await db.query<{ refusal: string | null }>(
      `SELECT refusal FROM send_sms_batch($1::jsonb)`,
      [
        JSON.stringify([
          {
            clientId: world.clientId,
            ownerId: world.userId,
            defaultPrice: '0.05',
            sender: 'Shop',
            recipient: '447700900123',
            body: 'Hello',
            reference: '',
            encoding: 'GSM-7',
            segments: 1,
            actorUserId: world.userId,
            key: null,
            hash: null,
            sendAt: null,
          },
        ]),
      ],
    );
    expect(row!.refusal).toBe('no-balance');
    expect(await world.amount()).toBe('0.0100');
    expect(
      await db.query('SELECT 1 FROM messages WHERE client_id = $1', [
        world.clientId,
      ]),
    ).toEqual([]);
  });

  it('defer_delivery: an ACCEPTED message waits for a new job later, its state unchanged', async () => {
    const world = await client();
    const id = await world.message('ACCEPTED');
    await db.query('SELECT defer_delivery($1::jsonb)', [
      JSON.stringify([
        { messageId: id, delaySeconds: 60, route: ['MELROSE_SMPP'] },
      ]),
    ]);
    expect(await world.states([id])).toEqual(['ACCEPTED']);
    const [message] = await db.query<{ waiting_job: string; route: string[] }>(
      'SELECT waiting_job, route FROM messages WHERE id = $1',
      [id],
    );
    expect(message!.route).toEqual(['MELROSE_SMPP']);
    const [job] = await db.query<{ id: string; later: boolean }>(
      `SELECT id, start_after > now() + interval '30 seconds' AS later FROM pgboss.job
       WHERE name = 'sms-delivery' AND data->>'messageId' = $1`,
      [id],
    );
    expect(job).toEqual({ id: message!.waiting_job, later: true });
  });

  it('the status-callback triggers: an event per new message and per state change, for a client with a URL', async () => {
    const world = await client('9.95');
    await db.query(
      `UPDATE clients SET status_callback_url = 'https://example.com/hook',
                          status_callback_signing_key = 'k'
       WHERE id = $1`,
      [world.clientId],
    );
    const id = await world.message('ACCEPTED');
    await db.query('SELECT fail_messages($1::uuid[])', [[id]]);
    const events = await jobs('status-callback', id);
    expect(events.map((e) => e.data.state)).toEqual(['ACCEPTED', 'FAILED']);
    expect(events[0]!.data).toMatchObject({
      clientId: world.clientId,
      messageId: id,
      attempt: 1,
    });

    // A client without a URL: nothing queued.
    const quiet = await client();
    const other = await quiet.message('ACCEPTED');
    await db.query('SELECT fail_messages($1::uuid[])', [[other]]);
    expect(await jobs('status-callback', other)).toEqual([]);
  });
});

describe('sign-in attempts', () => {
  it('take_sign_in_attempt: counts tries up to the limit, then answers the wait', async () => {
    const key = `ip:${randomUUID()}`;
    const take = async () =>
      (
        await db.query<{ wait_ms: string | number; refused_by: string[] }>(
          `SELECT wait_ms, refused_by
           FROM take_sign_in_attempt($1::text[], $2::int[], $3::boolean[], 60000)`,
          [[key], [2], [true]],
        )
      )[0]!;
    expect(Number((await take()).wait_ms)).toBe(0);
    expect(Number((await take()).wait_ms)).toBe(0);
    const refused = await take();
    expect(Number(refused.wait_ms)).toBeGreaterThan(0);
    expect(refused.refused_by).toEqual([key]);
  });
});

describe('pricing', () => {
  it('sms_amount: segments × price, rounded half up to 4 places', async () => {
    const [row] = await db.query(
      `SELECT sms_amount(3, 0.123456)::text AS a, sms_amount(1, 0.00005)::text AS b`,
    );
    expect(row).toEqual({ a: '0.3704', b: '0.0001' });
  });

  it('price_sms and destination_price: the longest prefix, blocked and allowed prefixes', async () => {
    const country = String(80 + Math.floor(Math.random() * 10));
    const city = `${country}5`;
    await db.query(
      `INSERT INTO prices (prefix, name, price_per_segment, blocked) VALUES
         ($1, 'Country', 0.01, false), ($2, 'City', 0.02, false), ($2 || '9', 'Closed', 0, true)
       ON CONFLICT (prefix) DO UPDATE
         SET name = EXCLUDED.name, price_per_segment = EXCLUDED.price_per_segment,
             blocked = EXCLUDED.blocked`,
      [country, city],
    );
    const price = async (recipient: string, allowed: string[] | null) =>
      (
        await db.query(
          `SELECT price_prefix, price_per_segment::text, amount::text, refusal
           FROM price_sms($1, 2, 0.05, $2::text[])`,
          [recipient, allowed],
        )
      )[0];
    expect(await price(`+${city}1234567`, null)).toEqual({
      price_prefix: city,
      price_per_segment: '0.020000',
      amount: '0.0400',
      refusal: null,
    });
    expect(await price(`${country}11234567`, null)).toMatchObject({
      price_prefix: country,
      amount: '0.0200',
      refusal: null,
    });
    expect(await price(`${city}91234567`, null)).toMatchObject({
      refusal: 'blocked',
    });
    expect(await price(`${city}1234567`, ['44'])).toMatchObject({
      refusal: 'not-allowed',
    });
  });
});

describe('the one inbound writer', () => {
  /** A client holding a fresh number. */
  async function holder() {
    const world = await client();
    const number = `4470${Math.floor(1e7 + Math.random() * 9e7)}`;
    await db.query('INSERT INTO numbers (number, client_id) VALUES ($1, $2)', [
      number,
      world.clientId,
    ]);
    return { ...world, number };
  }
  type Input = {
    method?: string;
    id: string | null;
    from?: string;
    to: string;
    body: string;
    concat?: [number, number, number];
  };
  /** record_inbound over inputs, its rows in order (r_ord null last). */
  const record = async (inputs: Input[], limit = '10 minutes') =>
    db.query<{
      r_ord: number | null;
      r_outcome: string;
      r_message_id: string | null;
    }>(
      `SELECT r_ord, r_outcome, r_message_id FROM record_inbound($1::text[], $2::text[],
         $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::int[],
         $10::interval) ORDER BY r_ord NULLS LAST`,
      [
        inputs.map((i) => i.method ?? 'MELROSE_SMPP'),
        inputs.map((i) => i.id),
        inputs.map((i) => i.from ?? '447700900555'),
        inputs.map((i) => i.to),
        inputs.map((i) => i.body),
        inputs.map(() => 'GSM-7'),
        inputs.map((i) => i.concat?.[0] ?? null),
        inputs.map((i) => i.concat?.[1] ?? null),
        inputs.map((i) => i.concat?.[2] ?? null),
        limit,
      ],
    );
  const messagesTo = (number: string) =>
    db.query<{
      client_id: string;
      body: string;
      segments: number;
      complete: boolean;
      keyword: string | null;
    }>(
      `SELECT client_id, body, segments, complete, keyword FROM inbound_messages
       WHERE to_number = $1 ORDER BY date_received, body`,
      [number],
    );

  it('record_inbound: whole messages routed to the holder, once per provider id; a number nobody holds stores nothing', async () => {
    const { number, clientId } = await holder();
    const id = `vx-${randomUUID()}`;
    const rows = await record([
      { method: 'VONAGE_SMS', id, to: number, body: 'Stop' },
      { method: 'VONAGE_SMS', id, to: number, body: 'Stop' },
      { id: null, to: number, body: 'no id' },
      { id: null, to: '4479999999999', body: 'nobody' },
    ]);
    expect(rows.map((r) => [r.r_ord, r.r_outcome])).toEqual([
      [1, 'stored'],
      [2, 'duplicate'],
      [3, 'stored'],
      [4, 'unrouted'],
    ]);
    const stored = await messagesTo(number);
    // One statement's rows: the same date_received; in body order by code point.
    stored.sort((a, b) => (a.body < b.body ? -1 : 1));
    expect(stored).toEqual([
      {
        client_id: clientId,
        body: 'Stop',
        segments: 1,
        complete: true,
        keyword: 'STOP',
      },
      {
        client_id: clientId,
        body: 'no id',
        segments: 1,
        complete: true,
        keyword: null,
      },
    ]);
    expect(await messagesTo('4479999999999')).toEqual([]);
  });

  it('record_inbound → join_inbound_parts: parts wait, the last joins them in part order; one again is a duplicate', async () => {
    const { number } = await holder();
    const part = (n: number) => ({
      id: null,
      to: number,
      body: `<${n}>`,
      concat: [9, 3, n] as [number, number, number],
    });
    expect((await record([part(3), part(1)])).map((r) => r.r_outcome)).toEqual([
      'waiting',
      'waiting',
    ]);
    expect((await record([part(1)])).map((r) => r.r_outcome)).toEqual([
      'duplicate',
    ]);
    const [joined] = await record([part(2)]);
    expect(joined).toMatchObject({
      r_outcome: 'stored',
      r_message_id: expect.any(String),
    });
    expect(await messagesTo(number)).toEqual([
      expect.objectContaining({
        body: '<1><2><3>',
        segments: 3,
        complete: true,
      }),
    ]);
    // Within the limit a part with no provider id is the same part again; past it, a new message.
    expect((await record([part(2)])).map((r) => r.r_outcome)).toEqual([
      'duplicate',
    ]);
    expect(
      (await record([part(2)], '0 seconds')).map((r) => r.r_outcome),
    ).toEqual(['waiting']);
  });

  it('record_inbound: a reference used again while its old parts wait stores the old message as it is', async () => {
    const { number } = await holder();
    const part = (id: string, n: number, body: string) => ({
      id,
      to: number,
      body,
      concat: [4, 2, n] as [number, number, number],
    });
    await record([part('a-1', 1, 'old ')]);
    const rows = await record([part('b-1', 1, 'new ')]);
    expect(rows.map((r) => [r.r_ord, r.r_outcome])).toEqual([
      [1, 'waiting'],
      [null, 'stored'],
    ]);
    await record([part('b-2', 2, 'end')]);
    expect(await messagesTo(number)).toEqual([
      expect.objectContaining({ body: 'old ', segments: 1, complete: false }),
      expect.objectContaining({ body: 'new end', segments: 2, complete: true }),
    ]);
  });

  it('store_overdue_inbound: parts past the limit stored as they are; younger ones wait; joined parts past the keep go', async () => {
    const { number } = await holder();
    const part = (ref: number, n: number) => ({
      id: null,
      to: number,
      body: `${ref}:${n}`,
      concat: [ref, 3, n] as [number, number, number],
    });
    await record([part(1, 3), part(1, 1), part(2, 2)]);
    await db.query(
      `UPDATE inbound_parts SET date_received = now() - interval '11 minutes'
       WHERE to_number = $1 AND reference = 1`,
      [number],
    );
    const swept = await db.query<{ r_outcome: string }>(
      "SELECT r_outcome FROM store_overdue_inbound(interval '10 minutes', interval '1 day')",
    );
    expect(swept.map((r) => r.r_outcome)).toContain('stored');
    expect(await messagesTo(number)).toEqual([
      expect.objectContaining({ body: '1:11:3', segments: 2, complete: false }),
    ]);
    const parts = () =>
      db.query<{ reference: number; joined: boolean }>(
        `SELECT reference, message_id IS NOT NULL AS joined FROM inbound_parts
         WHERE to_number = $1 ORDER BY reference, part_number`,
        [number],
      );
    expect(await parts()).toEqual([
      { reference: 1, joined: true },
      { reference: 1, joined: true },
      { reference: 2, joined: false },
    ]);
    await db.query(
      "SELECT * FROM store_overdue_inbound(interval '10 minutes', interval '5 minutes')",
    );
    expect(await parts()).toEqual([{ reference: 2, joined: false }]);
  });
});

describe('opt-outs (issue 32), one transition a test', () => {
  const RECIPIENT = '447700900123';
  const optOut = (clientId: string, source: 'keyword' | 'api') =>
    db.query<{ source: string; taken: boolean; canceled: number }>(
      `SELECT source, taken, canceled
       FROM opt_out_numbers(ARRAY[$1::uuid], ARRAY[$2::text], $3)`,
      [clientId, RECIPIENT, source],
    );

  it('opt_out_numbers: the row, a keyword one taking over an api one, the SCHEDULED to it CANCELED and refunded once', async () => {
    const world = await client();
    const scheduled = await world.message('SCHEDULED', {
      sendAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const accepted = await world.message('ACCEPTED');
    expect(await optOut(world.clientId, 'api')).toEqual([
      { source: 'api', taken: true, canceled: 1 },
    ]);
    expect(await world.states([scheduled, accepted])).toEqual([
      'CANCELED',
      'ACCEPTED',
    ]);
    expect(await world.refunds()).toEqual([
      { message_id: scheduled, amount: '0.0500', balance_after: '10.0500' },
    ]);
    // The recipient's own STOP takes it over; the client's PUT then leaves it keyword.
    expect(await optOut(world.clientId, 'keyword')).toEqual([
      { source: 'keyword', taken: true, canceled: 0 },
    ]);
    expect(await optOut(world.clientId, 'api')).toEqual([
      { source: 'keyword', taken: false, canceled: 0 },
    ]);
    expect(await world.refunds()).toHaveLength(1);
    // A client deleted meanwhile: nothing written.
    expect(await optOut(randomUUID(), 'api')).toEqual([]);
  });

  it('inbound_messages_keywords: the later of a STOP and a START decides; one reply job per keyword', async () => {
    const world = await client();
    const sender = `4477${randomInt(1e7, 1e8)}`;
    const jobs = async () =>
      (
        await db.query<{ keyword: string; opted_out: boolean }>(
          `SELECT data->>'keyword' AS keyword, (data->>'optedOut')::boolean AS opted_out
           FROM pgboss.job WHERE name = 'keyword-reply' AND data->>'clientId' = $1
           ORDER BY data->>'keyword'`,
          [world.clientId],
        )
      ).map((j) => `${j.keyword}${j.opted_out ? ' (opted out)' : ''}`);
    const insert = (rows: [string, string | null, number][]) =>
      db.query(
        `INSERT INTO inbound_messages (client_id, method, from_number, to_number, body,
                                       encoding, segments, keyword, date_received)
         SELECT $1, 'MELROSE_SMPP', $2, '12345', r.body, 'GSM-7', 1, r.keyword,
                now() + make_interval(secs => r.at)
         FROM jsonb_to_recordset($3::jsonb) AS r(body text, keyword text, at int)`,
        [
          world.clientId,
          sender,
          JSON.stringify(
            rows.map(([body, keyword, at]) => ({ body, keyword, at })),
          ),
        ],
      );
    const rows = () =>
      db.query<{ source: string }>(
        'SELECT source FROM optouts WHERE client_id = $1 AND number = $2',
        [world.clientId, sender],
      );

    await insert([['Hello', null, 0]]);
    expect(await jobs()).toEqual([]);
    await insert([
      ['STOP', 'STOP', 0],
      ['START', 'START', 1],
    ]);
    expect(await rows()).toEqual([]);
    expect(await jobs()).toEqual(['START', 'STOP']);
    await insert([
      ['START', 'START', 0],
      ['stop', 'STOP', 1],
      ['help', 'HELP', 2],
    ]);
    expect(await rows()).toEqual([{ source: 'keyword' }]);
    expect(await jobs()).toEqual([
      'HELP',
      'START',
      'START',
      'STOP',
      'STOP (opted out)',
    ]);
  });
});
