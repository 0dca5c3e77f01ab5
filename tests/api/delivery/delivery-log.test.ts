import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMessage } from '../../support/delivery.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * The message log calls (list, detail, CSV, admin variants, API-client credentials) and
 * idempotent sends. No SMSC: MELROSE_SMPP without SMPP_HOST goes to the simulator.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

async function customer(credit = 10) {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  if (credit > 0) await giveCredit(server.url, client.id, credit);
  const path = `/api/clients/${client.id}/messages`;
  const send = async (body: string, recipient = '447700900123') => {
    const sent = await owner.http.post(`${path}/sms`, {
      sender: 'Shop',
      recipient,
      body,
    });
    expect(sent.status).toBe(201);
    return sent.body as { id: string; dateCreated: string };
  };
  return { ...owner, client, path, send };
}

describe('the message log', () => {
  let c: Awaited<ReturnType<typeof customer>>;
  let sent: { id: string; dateCreated: string }[];

  beforeAll(async () => {
    c = await customer();
    sent = [];
    sent.push(await c.send('first', '447700900001'));
    sent.push(await c.send('=HYPERLINK("x"), second', '447700900002'));
    sent.push(await c.send('third', '447700900003'));
    for (const m of sent) await waitForMessage(c.http, c.client.id, m.id);
  });

  it('lists newest first with paging', async () => {
    const all = await c.http.get(c.path);
    expect(all.status).toBe(200);
    // `count` is the page size (default 30), as in every list; the page holds 3.
    expect(all.body).toMatchObject({ total: 3, count: 30, offset: 0 });
    expect(all.body.messages.map((m: any) => m.id)).toEqual(
      sent.map((m) => m.id).reverse(),
    );
    expect(all.body.messages[0]).toMatchObject({
      state: 'DELIVERED',
      deliveryMethod: 'MELROSE_SMPP',
      simulated: true,
    });
    expect(all.body.messages[0].attempts).toBeUndefined();
    const page = await c.http.get(`${c.path}?count=1&offset=1`);
    expect(page.body).toMatchObject({ total: 3, count: 1, offset: 1 });
    expect(page.body.messages[0].id).toBe(sent[1]!.id);
  });

  it('filters by state, recipient and time', async () => {
    const ids = async (query: string) =>
      (await c.http.get(`${c.path}?${query}`)).body.messages.map(
        (m: any) => m.id,
      );
    expect(await ids('state=DELIVERED')).toHaveLength(3);
    expect(await ids('state=FAILED')).toEqual([]);
    expect(await ids('recipient=%2B44%207700%20900002')).toEqual([sent[1]!.id]);
    expect(
      await ids(`since=${encodeURIComponent(sent[1]!.dateCreated)}`),
    ).toEqual([sent[2]!.id, sent[1]!.id]);
    expect(
      await ids(`until=${encodeURIComponent(sent[1]!.dateCreated)}`),
    ).toEqual([sent[0]!.id]);
    expect(await ids('since=2999-01-01')).toEqual([]);
    for (const bad of [
      'state=LOST',
      'since=yesterday',
      'until=2024-13-01',
      'count=0',
    ]) {
      expect((await c.http.get(`${c.path}?${bad}`)).status).toBe(400);
    }
  });

  it('shows one message with its attempts', async () => {
    const detail = await c.http.get(`${c.path}/${sent[0]!.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: sent[0]!.id,
      body: 'first',
      state: 'DELIVERED',
      deliveryMethod: 'MELROSE_SMPP',
      simulated: true,
      attempts: [
        {
          method: 'MELROSE_SMPP',
          state: 'DELIVERED',
          providerMessageId: expect.stringMatching(/^sim-/),
          error: null,
        },
      ],
    });
    const unknown = await c.http.get(
      `${c.path}/00000000-0000-4000-8000-000000000000`,
    );
    expect(unknown.status).toBe(404);
    expect((await c.http.get(`${c.path}/not-an-id`)).status).toBe(400);
  });

  it('streams the same filtered log as CSV, one row per message, formulas defused', async () => {
    const csv = await c.http.get(`${c.path}.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (csv.body as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,dateCreated,dateUpdated,state,deliveryMethod,simulated,sender,recipient,reference,encoding,segments,price,pricePerSegment,pricePrefix,currency,body',
    );
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(
      sent.map((m) => m.id).reverse(),
    );
    expect(lines[2]).toContain(`"'=HYPERLINK(""x""), second"`);
    expect(lines[1]).toMatch(
      /,DELIVERED,MELROSE_SMPP,true,Shop,447700900003,,GSM-7,1,0.05,0.05,,EUR,third$/,
    );
    const filtered = await c.http.get(`${c.path}.csv?recipient=447700900001`);
    expect((filtered.body as string).trimEnd().split('\r\n')).toHaveLength(2);
    expect((await c.http.get(`${c.path}.csv?state=nope`)).status).toBe(400);
  });

  it("answers 404 for another user's client, and lets the API client read its own log", async () => {
    const other = await registerUser(server.url);
    for (const path of [c.path, `${c.path}/${sent[0]!.id}`, `${c.path}.csv`]) {
      expect((await other.http.get(path)).status).toBe(404);
    }
    const api = clientHttp(server.url, c.client);
    expect((await api.get(c.path)).body.total).toBe(3);
    expect((await api.get(`${c.path}/${sent[0]!.id}`)).status).toBe(200);
    expect((await api.get(`${c.path}.csv`)).status).toBe(200);
    const otherClient = await createClient(other.http);
    expect(
      (await api.get(`/api/clients/${otherClient.id}/messages`)).status,
    ).toBe(404);
  });

  it('shows any client’s log to staff with CLIENT VIEW, 403 to others', async () => {
    const admin = adminHttp(server.url);
    const adminPath = `/api/admin/clients/${c.client.id}/messages`;
    const list = await admin.get(`${adminPath}?state=DELIVERED&count=2`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 3, count: 2 });
    const detail = await admin.get(`${adminPath}/${sent[2]!.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.attempts).toHaveLength(1);
    expect(
      (
        await admin.get(
          '/api/admin/clients/00000000-0000-4000-8000-000000000000/messages',
        )
      ).status,
    ).toBe(404);
    expect((await c.http.get(adminPath)).status).toBe(403);
    expect((await c.http.get(`${adminPath}/${sent[2]!.id}`)).status).toBe(403);
  });
});

describe('sends accepted together', () => {
  it('refuses text PostgreSQL cannot store without failing the sends beside it', async () => {
    const c = await customer(1);
    const answers = await Promise.all(
      ['ok 1', 'a\u0000b', 'ok 2', 'half \ud83d', 'ok 3'].map((body) =>
        c.http.post(`${c.path}/sms`, {
          sender: 'Shop',
          recipient: '447700900123',
          body,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 400, 201, 400, 201]);
    expect((await c.http.get(c.path)).body.total).toBe(3);
  });
});

describe('Idempotency-Key', () => {
  it('answers racing repeats with the first answer and charges once', async () => {
    const c = await customer(1);
    const body = { sender: 'Shop', recipient: '447700900123', body: 'once' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        c.http.post(`${c.path}/sms`, body, { 'idempotency-key': 'order-7' }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(
      answers.filter((a) => a.headers.get('idempotent-replayed') === 'true'),
    ).toHaveLength(9);
    const later = await c.http.post(`${c.path}/sms`, body, {
      'idempotency-key': 'order-7',
    });
    expect(later.body).toEqual(answers[0]!.body);
    expect((await c.http.get(c.path)).body.total).toBe(1);
    const balance = await c.http.get(
      `/api/clients/${c.client.id}/balances/default`,
    );
    expect(balance.body.amount).toBe(0.95);
    // Without a key, the same body is a new message.
    expect((await c.http.post(`${c.path}/sms`, body)).body.id).not.toBe(
      answers[0]!.body.id,
    );
  });

  it('refuses the same key with another request (422), keeps keys per client, checks the header', async () => {
    const c = await customer(1);
    const key = { 'idempotency-key': 'k-1' };
    const first = await c.http.post(
      `${c.path}/sms`,
      { sender: 'Shop', recipient: '447700900123', body: 'a' },
      key,
    );
    expect(first.status).toBe(201);
    const other = await c.http.post(
      `${c.path}/sms`,
      { sender: 'Shop', recipient: '447700900123', body: 'b' },
      key,
    );
    expect(other.status).toBe(422);
    const second = await createClient(c.http, 'Second');
    await giveCredit(server.url, second.id, 1);
    const elsewhere = await c.http.post(
      `/api/clients/${second.id}/messages/sms`,
      { sender: 'Shop', recipient: '447700900123', body: 'a' },
      key,
    );
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.body.id);
    for (const bad of ['', 'caf\u00e9', 'x'.repeat(256), 'tab\there']) {
      const answer = await c.http.post(
        `${c.path}/sms`,
        { sender: 'Shop', recipient: '447700900123', body: 'a' },
        { 'idempotency-key': bad },
      );
      expect(answer.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('keeps no key for a refused send: the retry after a top-up goes through', async () => {
    const c = await customer(0);
    const body = {
      sender: 'Shop',
      recipient: '447700900123',
      body: 'pay first',
    };
    const key = { 'idempotency-key': 'retry-me' };
    expect((await c.http.post(`${c.path}/sms`, body, key)).status).toBe(402);
    await giveCredit(server.url, c.client.id, 1);
    const retried = await c.http.post(`${c.path}/sms`, body, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('the message log as CSV, past one chunk', () => {
  it('exports every message when many share one timestamp to the microsecond', async () => {
    const c = await customer();
    // Messages accepted in one batch share the transaction's now(); the export reads 1,000 rows
    // at a time, so 1,100 such messages put the chunk's edge inside the group.
    const ids = await server.app.db.query<{ id: string }>(
      `INSERT INTO messages (client_id, user_id, sender, recipient, body, reference, state,
                             encoding, segments, price, currency, date_created, date_updated)
       SELECT $1, $2, 'Shop', '447700900123', 'batch ' || i, 'semi;colon' || chr(9) || 'tab',
              'DELIVERED', 'GSM-7', 1, 0.05, 'EUR',
              '2026-11-02 10:00:00.123456+00', '2026-11-02 10:00:00.123456+00'
       FROM generate_series(1, 1100) AS i RETURNING id`,
      [c.client.id, c.client.userId],
    );
    const csv = await c.http.get(`${c.path}.csv`);
    expect(csv.status).toBe(200);
    const rows = (csv.body as string).trimEnd().split('\r\n').slice(1);
    expect(rows).toHaveLength(1100);
    expect(new Set(rows.map((row) => row.split(',')[0]))).toEqual(
      new Set(ids.map((row) => row.id)),
    );
    // A semicolon or a TAB is quoted too, for spreadsheets that split on them.
    expect(rows[0]).toContain(',"semi;colon\ttab",');
  });
});
