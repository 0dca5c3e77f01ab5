// @also-on-pglite: money as PGlite's NUMERIC parser returns it, concurrent writers on its one connection, and ledger:verify on an embedded DATA_DIR.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/server/config.ts';
import { openDatabase } from '../../../../src/server/db/open.ts';
import { ledgerDifferences } from '../../../../src/server/features/balances/ledger-check.ts';
import { onPostgres } from '../../../support/engine.ts';
import type { HttpClient } from '../../../support/http.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
  defaultBalancePath,
} from '../../../support/seed.ts';
import { expectLedgerBalanced } from '../../../support/ledger.ts';
import { tempDataDir } from '../../../support/spawn-server.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const today = () => new Date().toISOString().slice(0, 10);
const dayBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000)
    .toISOString()
    .slice(0, 10);

/** A customer with one client, and what to call on it. */
async function customer() {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  const base = `/api/clients/${client.id}/balances/default`;
  const credit = (amount: number | string, reason?: unknown) =>
    adminHttp(server.url).post(
      `${defaultBalancePath(client.id)}/freecredit`,
      reason === undefined ? { amount } : { amount, reason },
    );
  const send = (body = 'Hello', http: HttpClient = owner.http) =>
    http.post(`/api/clients/${client.id}/messages/sms`, {
      sender: 'Shop',
      recipient: '447700900123',
      body,
    });
  return { ...owner, client, base, credit, send };
}

describe('GET /api/clients/{clientId}/balances/default/ledger', () => {
  it('lists credits with the reason and debits with their message, newest first, with the balance after each', async () => {
    const { http, base, credit, send } = await customer();
    expect((await credit('1.5', 'Welcome bonus')).status).toBe(200);
    const sent = await send('a'.repeat(200)); // 2 segments: 0.10
    expect(sent.status).toBe(201);
    const ledger = await http.get(`${base}/ledger`);
    expect(ledger.status).toBe(200);
    expect(ledger.body).toEqual({
      total: 2,
      count: 30,
      offset: 0,
      entries: [
        {
          id: expect.stringMatching(/^\d+$/),
          kind: 'SMS',
          amount: -0.1,
          balanceAfter: 1.4,
          reason: null,
          messageId: sent.body.id,
          recipient: '447700900123',
          segments: 2,
          pricePerSegment: 0.05,
          pricePrefix: null,
          dateCreated: expect.any(String),
        },
        {
          id: expect.stringMatching(/^\d+$/),
          kind: 'FREE_CREDIT',
          amount: 1.5,
          balanceAfter: 1.5,
          reason: 'Welcome bonus',
          messageId: null,
          recipient: null,
          segments: null,
          pricePerSegment: null,
          pricePrefix: null,
          dateCreated: expect.any(String),
        },
      ],
    });
    const [debit, grant] = ledger.body.entries;
    expect(BigInt(debit.id)).toBeGreaterThan(BigInt(grant.id));
  });

  it('keeps a reason of up to 200 characters, trimmed; blank or missing is null; longer is 400', async () => {
    const { http, base, credit } = await customer();
    expect((await credit(1, '   ')).status).toBe(200);
    expect((await credit(1)).status).toBe(200);
    expect((await credit(1, null)).status).toBe(200);
    expect((await credit(1, `  ${'r'.repeat(200)}  `)).status).toBe(200);
    const long = await credit(1, 'r'.repeat(201));
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/Reason must be at most 200 characters/);
    expect((await credit(1, 42)).status).toBe(400);
    const reasons = (await http.get(`${base}/ledger`)).body.entries.map(
      (e: { reason: string | null }) => e.reason,
    );
    expect(reasons).toEqual(['r'.repeat(200), null, null, null]);
  });

  it('pages, and filters by kind and by period (a date is a whole UTC day)', async () => {
    const { http, base, credit, send } = await customer();
    await credit(1);
    for (let i = 0; i < 3; i += 1) expect((await send()).status).toBe(201);
    await credit(2);
    const all = (await http.get(`${base}/ledger`)).body;
    expect(all.entries.map((e: { kind: string }) => e.kind)).toEqual([
      'FREE_CREDIT',
      'SMS',
      'SMS',
      'SMS',
      'FREE_CREDIT',
    ]);
    const page = await http.get(`${base}/ledger?count=2&offset=2`);
    expect(page.body).toMatchObject({ total: 5, count: 2, offset: 2 });
    expect(page.body.entries.map((e: { id: string }) => e.id)).toEqual(
      all.entries.slice(2, 4).map((e: { id: string }) => e.id),
    );
    const sms = (await http.get(`${base}/ledger?kind=SMS`)).body;
    expect(sms.total).toBe(3);
    expect(sms.entries.every((e: { kind: string }) => e.kind === 'SMS')).toBe(
      true,
    );
    expect((await http.get(`${base}/ledger?kind=REFUND`)).body.total).toBe(0);
    expect(
      (await http.get(`${base}/ledger?since=${today()}&until=${today()}`)).body
        .total,
    ).toBe(5);
    const yesterday = dayBefore(today(), 1);
    expect(
      (await http.get(`${base}/ledger?until=${yesterday}`)).body.total,
    ).toBe(0);
    // An ISO time bound includes the millisecond it names.
    const newest = all.entries[0].dateCreated as string;
    const upToNewest = await http.get(
      `${base}/ledger?since=${encodeURIComponent(newest)}&until=${encodeURIComponent(newest)}`,
    );
    expect(upToNewest.body.entries[0].id).toBe(all.entries[0].id);
  });

  it.each([
    ['kind=DEBIT', /kind must be FREE_CREDIT, SMS or REFUND/],
    ['since=yesterday', /date \(YYYY-MM-DD\) or an ISO 8601 time/],
    ['until=2026-02-30', /date \(YYYY-MM-DD\) or an ISO 8601 time/],
    ['since=2026-05-02&until=2026-05-01', /since must be before until/],
    ['count=0', /count must be at least 1/],
  ])('refuses %s with 400', async (query, message) => {
    const { http, base } = await customer();
    const answer = await http.get(`${base}/ledger?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(message);
  });

  it("is the owner's or the client's own: another user, another client's credentials or an unknown id get 404", async () => {
    const { client, base, credit } = await customer();
    await credit(1);
    const api = clientHttp(server.url, client);
    expect((await api.get(`${base}/ledger`)).body.total).toBe(1);
    expect((await api.get(`${base}/usage`)).status).toBe(200);
    expect((await api.get(`${base}/ledger.csv`)).status).toBe(200);
    const other = await customer();
    for (const path of ['ledger', 'ledger.csv', 'usage']) {
      expect((await other.http.get(`${base}/${path}`)).status).toBe(404);
      const otherApi = clientHttp(server.url, other.client);
      expect((await otherApi.get(`${base}/${path}`)).status).toBe(404);
      expect(
        (
          await other.http.get(
            `/api/clients/${UNKNOWN}/balances/default/${path}`,
          )
        ).status,
      ).toBe(404);
      expect(
        (await other.http.get(`/api/clients/nope/balances/default/${path}`))
          .status,
      ).toBe(400);
      // Staff see a client's ledger through their own clients only: this is a customer call.
      expect((await adminHttp(server.url).get(`${base}/${path}`)).status).toBe(
        404,
      );
    }
  });
});

describe('GET /api/clients/{clientId}/balances/default/ledger.csv', () => {
  it('holds credits and debits as CSV, quoting what needs it and defusing formulas', async () => {
    const { base, credit, send, email, password } = await customer();
    await credit(1, 'Goodwill, "sorry"');
    await credit('0.5', '=HYPERLINK("x")');
    const sent = await send();
    const response = await fetch(`${server.url}${base}/ledger.csv`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`,
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'text/csv; charset=utf-8',
    );
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="ledger-[0-9a-f-]+\.csv"$/,
    );
    const lines = (await response.text()).trimEnd().split('\n');
    expect(lines[0]).toBe(
      'id,date,kind,amount,balanceAfter,reason,messageId,recipient,segments,pricePerSegment,pricePrefix',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d+,[^,]+,SMS,-0.05,1.45,,${sent.body.id},447700900123,1,0.05,$`,
      ),
    );
    expect(lines[2]).toMatch(
      /,FREE_CREDIT,0.5,1.5,"'=HYPERLINK\(""x""\)",,,,,$/,
    );
    expect(lines[3]).toMatch(/,FREE_CREDIT,1,1,"Goodwill, ""sorry""",,,,,$/);
  });

  it('streams a ledger longer than one batch whole, newest first, and with the filters', async () => {
    const { http, client, base } = await customer();
    // 2,500 grants written straight into the database, as the credit call writes them.
    await server.app.db.query(
      `WITH b AS (
         UPDATE balances SET amount = amount + 2500 * 0.01 WHERE id = $1 RETURNING id
       )
       INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason)
       SELECT $1, $1, 0.01, n * 0.01, 'FREE_CREDIT' FROM b, generate_series(1, 2500) AS n
       ORDER BY n`,
      [client.id],
    );
    await expectLedgerBalanced(server);
    const csv = await http.get(`${base}/ledger.csv`);
    const rows = (csv.body as string).trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(2500);
    const ids = rows.map((row) => BigInt(row.split(',')[0]!));
    expect(ids.every((id, i) => i === 0 || id < ids[i - 1]!)).toBe(true);
    expect(rows[0]).toMatch(/,FREE_CREDIT,0.01,25,/);
    const none = await http.get(`${base}/ledger.csv?kind=SMS`);
    expect((none.body as string).trimEnd().split('\n')).toHaveLength(1);
    expect((await http.get(`${base}/ledger.csv?kind=X`)).status).toBe(400);
  });
});

describe('GET /api/clients/{clientId}/balances/default/usage', () => {
  it('lists the last 30 UTC days by default, zeros included, today with its sends', async () => {
    const { http, base, credit, send } = await customer();
    await credit(1);
    expect((await send('one')).status).toBe(201);
    expect((await send('b'.repeat(200))).status).toBe(201); // 2 segments
    const usage = await http.get(`${base}/usage`);
    expect(usage.status).toBe(200);
    const days = usage.body.days as {
      date: string;
      messages: number;
      segments: number;
      amount: number;
    }[];
    expect(days).toHaveLength(30);
    expect(days[29]).toEqual({
      date: today(),
      messages: 2,
      segments: 3,
      amount: 0.15,
    });
    expect(days[0]!.date).toBe(dayBefore(today(), 29));
    expect(days.slice(0, 29)).toEqual(
      days
        .slice(0, 29)
        .map((d) => ({ date: d.date, messages: 0, segments: 0, amount: 0 })),
    );
    // Consecutive days, oldest first.
    days.forEach((d, i) => {
      if (i > 0) expect(d.date).toBe(dayBefore(days[i - 1]!.date, -1));
    });
  });

  it('subtracts refunds from the amount spent on their day', async () => {
    const { http, client, base, credit, send } = await customer();
    await credit(1);
    const sent = await send('x'.repeat(200)); // 0.10
    expect(sent.status).toBe(201);
    await send(); // 0.05
    // A refund as the delivery core writes one for a failed message.
    await server.app.db.query(
      `WITH b AS (
         UPDATE balances SET amount = amount + 0.10 WHERE id = $1 RETURNING id, amount
       )
       INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason, message_id)
       SELECT id, id, 0.10, amount, 'REFUND', $2 FROM b`,
      [client.id, sent.body.id],
    );
    await expectLedgerBalanced(server);
    const usage = await http.get(`${base}/usage?since=${today()}`);
    expect(usage.body.days).toEqual([
      { date: today(), messages: 2, segments: 3, amount: 0.05 },
    ]);
    const refunds = await http.get(`${base}/ledger?kind=REFUND`);
    expect(refunds.body.entries).toEqual([
      expect.objectContaining({
        kind: 'REFUND',
        amount: 0.1,
        balanceAfter: 0.95,
        messageId: sent.body.id,
      }),
    ]);
  });

  it('takes since and until as dates or ISO times; refuses more than 366 days or a reversed period', async () => {
    const { http, base } = await customer();
    const week = await http.get(
      `${base}/usage?since=2026-01-01&until=2026-01-07`,
    );
    expect(week.status).toBe(200);
    expect(week.body.days.map((d: { date: string }) => d.date)).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
      '2026-01-04',
      '2026-01-05',
      '2026-01-06',
      '2026-01-07',
    ]);
    const times = await http.get(
      `${base}/usage?since=2026-01-01T12:00:00Z&until=${encodeURIComponent('2026-01-02T01:00:00+02:00')}`,
    );
    expect(times.body.days.map((d: { date: string }) => d.date)).toEqual([
      '2026-01-01',
    ]);
    const year = await http.get(
      `${base}/usage?since=2025-01-01&until=2026-01-01`,
    );
    expect(year.body.days).toHaveLength(366);
    const tooLong = await http.get(
      `${base}/usage?since=2024-01-01&until=2026-01-01`,
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('The period is at most 366 days');
    const reversed = await http.get(
      `${base}/usage?since=2026-01-02&until=2026-01-01`,
    );
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toBe('since must be before until');
    expect((await http.get(`${base}/usage?since=soon`)).status).toBe(400);
  });
});

describe('the ledger is the truth', () => {
  it('still accounts for every balance after racing credits and sends', async () => {
    const { client, credit, send } = await customer();
    await credit('0.5');
    const api = clientHttp(server.url, client);
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => send(`race ${i}`, api)),
      ...Array.from({ length: 5 }, () => credit('0.05')),
    ]);
    expect(answers.every((a) => [200, 201, 402].includes(a.status))).toBe(true);
    await expectLedgerBalanced(server);
  });

  it('names a balance changed behind the ledger, and a broken running balance', async () => {
    const { client } = await customer();
    await giveCredit(server.url, client.id, 1);
    await server.app.db.query(
      'UPDATE balances SET amount = amount + 0.25 WHERE id = $1',
      [client.id],
    );
    try {
      expect(await ledgerDifferences(server.app.db)).toEqual([
        {
          balanceId: client.id,
          clientId: client.id,
          problem: 'balance is 1.2500 but its ledger sums to 1.0000',
        },
      ]);
      await server.app.db.query(
        `INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason)
         VALUES ($1, $1, 0.25, 1.5, 'FREE_CREDIT')`,
        [client.id],
      );
      expect(await ledgerDifferences(server.app.db)).toEqual([
        {
          balanceId: client.id,
          clientId: client.id,
          problem: expect.stringMatching(
            /^ledger entry \d+ says the balance was 1.5000 after it, but the entries up to it sum to 1.2500$/,
          ),
        },
      ]);
    } finally {
      // Leave the books right for the other tests of this file.
      await server.app.db.query(
        `UPDATE balance_ledger SET balance_after = 1.25
         WHERE balance_id = $1 AND balance_after = 1.5`,
        [client.id],
      );
    }
    await expectLedgerBalanced(server);
  });
});

describe('npm run ledger:verify', () => {
  it('exits 0 on sound books, 1 with the list of differences otherwise', async () => {
    const dir = tempDataDir('ledger');
    try {
      const db = await openDatabase(
        loadConfig({
          DATA_DIR: dir,
          DATABASE_ENGINE: 'pglite',
          LOG_LEVEL: 'silent',
        }),
      );
      const [user] = await db.query<{ id: string }>(
        `INSERT INTO users (email, password_hash) VALUES ('v@example.test', 'x') RETURNING id`,
      );
      const [client] = await db.query<{ id: string }>(
        `INSERT INTO clients (user_id, name, secret_hash) VALUES ($1, 'Shop', 'x') RETURNING id`,
        [user!.id],
      );
      await db.query(
        `INSERT INTO balances (id, client_id, currency, amount) VALUES ($1, $1, 'EUR', 2)`,
        [client!.id],
      );
      await db.query(
        `INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason)
         VALUES ($1, $1, 2, 2, 'FREE_CREDIT')`,
        [client!.id],
      );
      await db.close();
      const { DATABASE_URL: _unused, ...env } = process.env;
      const verify = () =>
        spawnSync(
          join('node_modules', '.bin', 'node'),
          ['scripts/ledger-verify.ts'],
          {
            env: { ...env, DATA_DIR: dir, DATABASE_ENGINE: 'pglite' },
            encoding: 'utf8',
            timeout: 60_000,
          },
        );
      const sound = verify();
      expect(sound.stdout).toMatch(
        /ledger verified on DATA_DIR .*: 1 balances, 1 entries, no difference/,
      );
      expect(sound.status).toBe(0);

      const reopened = await openDatabase(
        loadConfig({
          DATA_DIR: dir,
          DATABASE_ENGINE: 'pglite',
          LOG_LEVEL: 'silent',
        }),
      );
      await reopened.query('UPDATE balances SET amount = 3');
      await reopened.close();
      const broken = verify();
      expect(broken.stdout).toContain(
        `client ${client!.id} (balance ${client!.id}): balance is 3.0000 but its ledger sums to 2.0000`,
      );
      expect(broken.stdout).toMatch(/ledger NOT verified .*: 1 difference/);
      expect(broken.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.skipIf(!onPostgres)('a refund racing a send (PostgreSQL)', () => {
  let accepting: TestServer;
  beforeAll(async () => {
    // No delivery workers: the message stays ACCEPTED until the test fails it itself.
    accepting = await startServer({ DELIVERY_WORKERS: '0' });
  });
  afterAll(async () => accepting?.close());

  it('keeps the running balance when a send commits while the refund waits for the balance', async () => {
    const owner = await registerUser(accepting.url);
    const client = await createClient(owner.http);
    await giveCredit(accepting.url, client.id, 1);
    const sent = await owner.http.post(
      `/api/clients/${client.id}/messages/sms`,
      { sender: 'Shop', recipient: '447700900123', body: 'refund me' },
    );
    expect(sent.status).toBe(201);
    const { db } = accepting.app;

    let locked!: () => void;
    const balanceLocked = new Promise<void>((r) => (locked = r));
    let sendNow!: () => void;
    const sendAllowed = new Promise<void>((r) => (sendNow = r));
    // A send holding the balance's lock (as send_sms_batch does) while the refund arrives.
    const send = db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM balances WHERE client_id = $1 FOR UPDATE', [
        client.id,
      ]);
      locked();
      await sendAllowed;
      await tx.query('SELECT * FROM send_sms_batch($1::jsonb)', [
        JSON.stringify([
          {
            clientId: client.id,
            ownerId: client.userId,
            defaultPrice: '0.05',
            sender: 'Shop',
            recipient: '447700900124',
            body: 'racing',
            reference: '',
            encoding: 'GSM-7',
            segments: 1,
            actorUserId: client.userId,
          },
        ]),
      ]);
    });
    await balanceLocked;
    const refund = db.query('SELECT id FROM fail_messages($1::uuid[]) AS id', [
      [sent.body.id],
    ]);
    // The refund now waits for the balance's lock.
    await expect
      .poll(
        async () =>
          (
            await db.query(
              `SELECT 1 FROM pg_stat_activity
                 WHERE wait_event_type = 'Lock' AND query LIKE '%fail_messages%'`,
            )
          ).length,
        { timeout: 10_000 },
      )
      .toBe(1);
    sendNow();
    await send;
    expect(await refund).toHaveLength(1);
    expect(await ledgerDifferences(db)).toEqual([]);
    const balance = await owner.http.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.body.amount).toBe(0.95);
  });
});
