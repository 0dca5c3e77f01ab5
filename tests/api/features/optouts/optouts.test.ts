// @also-on-pglite: the keyword trigger queues its reply job into pg-boss's table, which PGlite's adapter runs too.
import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../support/eventually.ts';
import { expectLedgerBalanced } from '../../../support/ledger.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
  setPrice,
  uniquePrefix,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';
import { sendKeywordReply } from '../../../../src/server/inbound/keyword-replies.ts';

/**
 * CONTRACT "Two-way messaging": Opt-outs. A STOP (an inbound_messages row with keyword STOP, as
 * the one inbound writer stores it: inserted here directly) or PUT …/optouts/{number} opts a
 * number out of a client's messages; every send to it is refused inside the send's statement
 * (403 recipient_opted_out, nothing charged); its SCHEDULED messages are cancelled and refunded
 * once; a message waiting for its release is cancelled there; each keyword is answered from the
 * number, charged as a send.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    OPT_OUT_REPLY: 'Bye: reply START to come back',
    OPT_IN_REPLY: 'Welcome back',
    HELP_REPLY: 'Default help',
    WORLD_SPECIAL_TOKEN: 'gateway-token',
  });
});
afterAll(async () => {
  await server?.close();
});

/** A fresh number of 12 digits nobody else in this file uses. */
function phone(): string {
  return `4479${String(randomInt(10 ** 7, 10 ** 8))}`;
}

const inMinutes = (minutes: number) =>
  new Date(Date.now() + minutes * 60_000).toISOString();

async function customer(credit = '10') {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  if (credit !== '0') await giveCredit(server.url, client.id, credit);
  const base = `/api/clients/${client.id}`;
  const balance = async () =>
    (await owner.http.get(`${base}/balances/default`)).body.amount as number;
  const ledgerRows = async () =>
    (await owner.http.get(`${base}/balances/default/ledger`)).body
      .total as number;
  const send = (recipient: string, extra: object = {}) =>
    owner.http.post(`${base}/messages/sms`, {
      sender: 'Shop',
      recipient,
      body: 'Hello',
      ...extra,
    });
  const optOuts = async () =>
    (await owner.http.get(`${base}/optouts`)).body.optouts as {
      number: string;
      source: string;
      dateCreated: string;
    }[];
  const message = async (id: string) =>
    (await owner.http.get(`${base}/messages/${id}`)).body;
  return {
    ...owner,
    client,
    base,
    balance,
    ledgerRows,
    send,
    optOuts,
    message,
  };
}

/** What the inbound writer stores for a message received on `to` from `from`. */
async function receive(
  clientId: string,
  from: string,
  to: string,
  body: string,
  keyword: 'STOP' | 'START' | 'HELP' | null,
): Promise<string> {
  const [row] = await server.app.db.query<{ id: string }>(
    `INSERT INTO inbound_messages (client_id, method, provider_message_id, from_number,
                                   to_number, body, encoding, segments, keyword)
     VALUES ($1, 'VONAGE_SMS', $2, $3, $4, $5, 'GSM-7', 1, $6) RETURNING id`,
    [clientId, randomUUID(), from, to, body, keyword],
  );
  return row!.id;
}

/** A number held by the client, as staff assign it (numbers API: another helper's). */
async function holdNumber(clientId: string, helpText: string | null = null) {
  const number = String(randomInt(10 ** 10, 10 ** 11));
  await server.app.db.query(
    'INSERT INTO numbers (number, client_id, help_text) VALUES ($1, $2, $3)',
    [number, clientId, helpText],
  );
  return number;
}

/** A counter's value on /metrics (0 before its first). */
async function counted(series: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('the optouts API', () => {
  it('opts a number out (PUT), lists it, exports it as CSV, and ends it (DELETE)', async () => {
    const c = await customer();
    const number = phone();
    const apiBefore = await counted('sms_optouts_total{source="api"}');

    const put = await c.http.put(
      `${c.base}/optouts/${encodeURIComponent(`+${number.slice(0, 2)} ${number.slice(2)}`)}`,
    );
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      number,
      source: 'api',
      dateCreated: expect.any(String),
    });
    // Idempotent: the same row again.
    const again = await c.http.put(`${c.base}/optouts/00${number}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(put.body);
    expect(await counted('sms_optouts_total{source="api"}')).toBe(
      apiBefore + 1,
    );

    const list = await c.http.get(`${c.base}/optouts`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      total: 1,
      count: 30,
      offset: 0,
      optouts: [put.body],
    });

    const csv = await c.http.get(`${c.base}/optouts.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.body).toBe(
      `number,source,dateCreated\r\n${number},api,${put.body.dateCreated}\r\n`,
    );

    const removed = await c.http.delete(`${c.base}/optouts/${number}`);
    expect(removed.status).toBe(204);
    expect(await c.optOuts()).toEqual([]);
    const gone = await c.http.delete(`${c.base}/optouts/${number}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Opt-out not found');
  });

  it('pages newest first, and staff read it under /api/admin', async () => {
    const c = await customer();
    const numbers = [phone(), phone(), phone()];
    for (const number of numbers) {
      expect((await c.http.put(`${c.base}/optouts/${number}`)).status).toBe(
        200,
      );
    }
    const page = await c.http.get(`${c.base}/optouts?count=2&offset=1`);
    expect(page.body.total).toBe(3);
    expect(page.body.optouts.map((o: { number: string }) => o.number)).toEqual([
      numbers[1],
      numbers[0],
    ]);
    const staff = await adminHttp(server.url).get(
      `/api/admin/clients/${c.client.id}/optouts`,
    );
    expect(staff.status).toBe(200);
    expect(staff.body.total).toBe(3);
  });

  it('answers 400 for a bad number, 404 for another user’s client, and lets the client’s own credentials in', async () => {
    const c = await customer();
    const bad = await c.http.put(`${c.base}/optouts/12ab`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Number must be a phone number/);
    const national = await c.http.put(`${c.base}/optouts/07700900123`);
    expect(national.status).toBe(400);
    expect(national.body.message).toMatch(/national number/);

    const other = await customer();
    for (const answer of [
      await other.http.get(`${c.base}/optouts`),
      await other.http.get(`${c.base}/optouts.csv`),
      await other.http.put(`${c.base}/optouts/${phone()}`),
      await other.http.delete(`${c.base}/optouts/${phone()}`),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe('Client not found');
    }

    const own = clientHttp(server.url, c.client);
    const number = phone();
    expect((await own.put(`${c.base}/optouts/${number}`)).status).toBe(200);
    expect((await own.get(`${c.base}/optouts`)).body.total).toBe(1);
    expect((await own.delete(`${c.base}/optouts/${number}`)).status).toBe(204);
  });

  it('keeps a keyword opt-out from DELETE (409): only the number’s START ends it', async () => {
    const c = await customer();
    const number = phone();
    const ours = await holdNumber(c.client.id);
    await receive(c.client.id, number, ours, 'Stop', 'STOP');
    const removed = await c.http.delete(`${c.base}/optouts/${number}`);
    expect(removed.status).toBe(409);
    expect(removed.body.message).toBe(
      'This number opted out by replying STOP: only its own START ends that opt-out',
    );
    // PUT leaves it a keyword one.
    const put = await c.http.put(`${c.base}/optouts/${number}`);
    expect(put.body.source).toBe('keyword');
    await receive(c.client.id, number, ours, 'START', 'START');
    expect(await c.optOuts()).toEqual([]);
  });
});

describe('sends to an opted-out recipient', () => {
  it('refuses the single send and a scheduled one with 403 naming the number, charging nothing; the quote says why', async () => {
    const c = await customer();
    const number = phone();
    expect((await c.http.put(`${c.base}/optouts/${number}`)).status).toBe(200);
    const rows = await c.ledgerRows();

    for (const extra of [{}, { sendAt: inMinutes(30) }]) {
      const refused = await c.send(`+${number}`, extra);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('recipient_opted_out');
      expect(refused.body.message).toBe(
        `Sending to +${number} is not allowed: the recipient opted out of this client's messages`,
      );
    }
    expect(await c.balance()).toBe(10);
    expect(await c.ledgerRows()).toBe(rows);
    expect((await c.http.get(`${c.base}/messages`)).body.total).toBe(0);

    const quote = await c.http.get(
      `${c.base}/quote?recipient=${number}&body=Hello`,
    );
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({
      allowed: false,
      reason: `Sending to +${number} is not allowed: the recipient opted out of this client's messages`,
    });

    // Another client of the same owner may still send to it: opt-outs are per client.
    const sibling = await createClient(c.http, 'Other shop');
    await giveCredit(server.url, sibling.id, '1');
    const elsewhere = await c.http.post(
      `/api/clients/${sibling.id}/messages/sms`,
      { sender: 'Shop', recipient: number, body: 'Hello' },
    );
    expect(elsewhere.status).toBe(201);

    // Ended: sends go again.
    expect((await c.http.delete(`${c.base}/optouts/${number}`)).status).toBe(
      204,
    );
    expect((await c.send(number)).status).toBe(201);
    expect(
      (await c.http.get(`${c.base}/quote?recipient=${number}&body=Hello`)).body
        .allowed,
    ).toBe(true);
  });

  it('refuses a batch holding an opted-out recipient, all or nothing, listing it', async () => {
    const c = await customer();
    const out = phone();
    expect((await c.http.put(`${c.base}/optouts/${out}`)).status).toBe(200);
    const rows = await c.ledgerRows();
    const refused = await c.http.post(`${c.base}/batches`, {
      recipients: [phone(), `+${out}`, phone()],
      body: 'Sale',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('recipient_opted_out');
    expect(refused.body.message).toBe(
      `Sending to recipient 1 (+${out}: opted out) is not allowed; nothing was sent`,
    );
    expect(await c.balance()).toBe(10);
    expect(await c.ledgerRows()).toBe(rows);
    expect((await c.http.get(`${c.base}/batches`)).body.total).toBe(0);

    // With a blocked destination too, both are listed and the code is the destination's.
    const prefix = uniquePrefix();
    await setPrice(server.url, prefix, {
      name: 'Closed',
      pricePerSegment: '0.05',
      blocked: true,
    });
    const mixed = await c.http.post(`${c.base}/batches`, {
      recipients: [`${prefix}123`, out],
      body: 'Sale',
    });
    expect(mixed.status).toBe(403);
    expect(mixed.body.code).toBe('destination_blocked');
    expect(mixed.body.message).toMatch(
      /\+\d+, .*: blocked\), 1 \(\+\d+: opted out\)/,
    );
  });

  it('cancels and refunds once the scheduled messages to a number opted out by PUT', async () => {
    const c = await customer();
    const number = phone();
    const kept = phone();
    const scheduled = await c.send(number, { sendAt: inMinutes(60) });
    const other = await c.send(kept, { sendAt: inMinutes(60) });
    expect([scheduled.status, other.status]).toEqual([201, 201]);
    expect(await c.balance()).toBe(9.9);

    expect((await c.http.put(`${c.base}/optouts/${number}`)).status).toBe(200);
    expect((await c.message(scheduled.body.id)).state).toBe('CANCELED');
    expect((await c.message(other.body.id)).state).toBe('SCHEDULED');
    expect(await c.balance()).toBe(9.95);
    // Again: nothing more to cancel or refund.
    expect((await c.http.put(`${c.base}/optouts/${number}`)).status).toBe(200);
    expect(await c.balance()).toBe(9.95);
    const refunds = await c.http.get(
      `${c.base}/balances/default/ledger?kind=REFUND`,
    );
    expect(refunds.body.entries).toEqual([
      expect.objectContaining({ messageId: scheduled.body.id, amount: 0.05 }),
    ]);
    await expectLedgerBalanced(server);
  });

  it('cancels at its release a message that was waiting when its recipient opted out', async () => {
    const c = await customer();
    const paced = await adminHttp(server.url).put(
      `/api/admin/clients/${c.client.id}/limits`,
      { maxMessagesPerSecond: 1 },
    );
    expect(paced.status).toBe(200);
    const recipients = Array.from({ length: 8 }, () => phone());
    const batch = await c.http.post(`${c.base}/batches`, {
      recipients,
      body: 'Sale',
    });
    expect(batch.status).toBe(201);
    // The release goes in id order, a message a second: the last one waits ACCEPTED for
    // seconds when it opts out.
    const listed = (
      await c.http.get(`${c.base}/messages?batchId=${batch.body.id}`)
    ).body.messages as { id: string; recipient: string }[];
    const last = listed.reduce((a, b) => (a.id > b.id ? a : b)).recipient;
    expect((await c.http.put(`${c.base}/optouts/${last}`)).status).toBe(200);

    const done = await eventually(
      async () =>
        (await c.http.get(`${c.base}/messages?batchId=${batch.body.id}`)).body
          .messages as { recipient: string; state: string; id: string }[],
      (messages) =>
        messages.every((m) => ['DELIVERED', 'CANCELED'].includes(m.state)),
      { what: 'the paced batch settled', timeout: 30_000, interval: 200 },
    );
    const canceled = done.filter((m) => m.state === 'CANCELED');
    expect(canceled.map((m) => m.recipient)).toEqual([last]);
    expect(await c.balance()).toBe(9.65);
    await expectLedgerBalanced(server);
  });
});

describe('keywords received', () => {
  it('STOP opts the sender out, cancels its scheduled messages, and is answered from the number even so', async () => {
    const c = await customer();
    const number = phone();
    const ours = await holdNumber(c.client.id);
    const keywordBefore = await counted('sms_optouts_total{source="keyword"}');
    // An api opt-out of it first: STOP makes it the number's own.
    expect((await c.http.put(`${c.base}/optouts/${number}`)).status).toBe(200);
    expect((await c.http.delete(`${c.base}/optouts/${number}`)).status).toBe(
      204,
    );
    const scheduled = await c.send(number, { sendAt: inMinutes(60) });
    expect(scheduled.status).toBe(201);

    const stop = await receive(
      c.client.id,
      number,
      ours,
      'unsubscribe',
      'STOP',
    );
    expect(await c.optOuts()).toEqual([
      { number, source: 'keyword', dateCreated: expect.any(String) },
    ]);
    expect((await c.message(scheduled.body.id)).state).toBe('CANCELED');
    expect((await c.send(number)).status).toBe(403);

    // The reply: from our number to the sender, charged, delivered.
    const reply = await eventually(
      async () =>
        (
          await c.http.get(
            `${c.base}/messages?recipient=${number}&state=DELIVERED`,
          )
        ).body.messages,
      (messages: unknown[]) => messages.length === 1,
      { what: 'the STOP answered', timeout: 15_000 },
    );
    expect(reply[0]).toMatchObject({
      sender: ours,
      recipient: number,
      body: 'Bye: reply START to come back',
      reference: 'keyword-reply:STOP',
      price: 0.05,
    });
    // 10 − 0.05 (scheduled, refunded) − 0.05 (the reply).
    expect(await c.balance()).toBe(9.95);
    expect(await counted('sms_optouts_total{source="keyword"}')).toBe(
      keywordBefore + 1,
    );
    // Its job run again (a retry after a crash): still one reply, charged once.
    const again = await sendKeywordReply(
      {
        db: server.app.db,
        texts: { optOut: 'Bye', optIn: 'Hi', help: 'Help' },
        defaultPrice: '0.05',
      },
      stop,
    );
    expect(again).toBe('replied-already');
    const replies = await server.app.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM messages WHERE reply_to = $1',
      [stop],
    );
    expect(replies[0]!.n).toBe(1);
    expect(await c.balance()).toBe(9.95);
    // Opted out, the number may still ask for HELP, and is answered.
    await receive(c.client.id, number, ours, 'HELP', 'HELP');
    await eventually(
      async () =>
        (await c.http.get(`${c.base}/messages?recipient=${number}`)).body
          .messages as { body: string; state: string }[],
      (messages) =>
        messages.some(
          (m) => m.body === 'Default help' && m.state === 'DELIVERED',
        ),
      { what: 'HELP answered while opted out', timeout: 15_000 },
    );
    expect(await c.balance()).toBe(9.9);
    await expectLedgerBalanced(server);
  });

  it('START opts back in (answered with OPT_IN_REPLY); HELP is answered with the number’s help text, or HELP_REPLY', async () => {
    const c = await customer();
    const number = phone();
    const withHelp = await holdNumber(c.client.id, 'Shop support: 0800 123');
    const plain = await holdNumber(c.client.id);
    await receive(c.client.id, number, plain, 'STOP', 'STOP');
    await receive(c.client.id, number, plain, ' yes ', 'START');
    expect(await c.optOuts()).toEqual([]);
    await receive(c.client.id, number, withHelp, 'help', 'HELP');
    await receive(c.client.id, number, plain, 'INFO', 'HELP');

    const replies = await eventually(
      async () =>
        (await c.http.get(`${c.base}/messages?recipient=${number}`)).body
          .messages as { sender: string; body: string }[],
      (messages) => messages.length === 4,
      { what: 'four keyword replies', timeout: 15_000 },
    );
    expect(replies.map((m) => `${m.sender}: ${m.body}`).sort()).toEqual(
      [
        `${plain}: Bye: reply START to come back`,
        `${plain}: Welcome back`,
        `${withHelp}: Shop support: 0800 123`,
        `${plain}: Default help`,
      ].sort(),
    );
    expect((await c.send(number)).status).toBe(201);
  });

  it('takes a STOP through the gateway’s inbound webhook (the one inbound writer) as well', async () => {
    const c = await customer();
    const number = phone();
    const ours = await holdNumber(c.client.id);
    const post = (text: string) =>
      fetch(`${server.url}/api/webhooks/world-special/inbound`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer gateway-token',
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          id: randomUUID(),
          from: `+${number}`,
          to: ours,
          text,
        }),
      });
    expect((await post('Quit')).status).toBe(200);
    expect(await c.optOuts()).toEqual([
      { number, source: 'keyword', dateCreated: expect.any(String) },
    ]);
    const refused = await c.send(number);
    expect(refused.body.code).toBe('recipient_opted_out');
    await eventually(
      async () =>
        (await c.http.get(`${c.base}/messages?recipient=${number}`)).body
          .messages as { body: string; sender: string }[],
      (messages) =>
        messages.length === 1 &&
        messages[0]!.body === 'Bye: reply START to come back' &&
        messages[0]!.sender === ours,
      { what: 'the STOP answered', timeout: 15_000 },
    );
    expect((await post('unstop')).status).toBe(200);
    expect(await c.optOuts()).toEqual([]);
    expect((await c.send(number)).status).toBe(201);
  });

  it('keys a STOP from 00… by the digits a send sees (the international prefix dropped)', async () => {
    const c = await customer();
    const number = phone();
    const ours = await holdNumber(c.client.id);
    await receive(c.client.id, `00${number}`, ours, 'STOP', 'STOP');
    expect((await c.optOuts()).map((o) => o.number)).toEqual([number]);
    expect((await c.send(`+${number}`)).status).toBe(403);
    await eventually(
      async () =>
        (await c.http.get(`${c.base}/messages?recipient=${number}`)).body
          .total as number,
      (total) => total === 1,
      { what: 'the STOP answered at 44…', timeout: 15_000 },
    );
  });

  it('counts replies against the client’s messages a second: a throttled one is sent later, not lost', async () => {
    const c = await customer();
    const paced = await adminHttp(server.url).put(
      `/api/admin/clients/${c.client.id}/limits`,
      { maxMessagesPerSecond: 1 },
    );
    expect(paced.status).toBe(200);
    const ours = await holdNumber(c.client.id);
    const senders = [phone(), phone(), phone()];
    await server.app.db.query(
      `INSERT INTO inbound_messages (client_id, method, from_number, to_number, body,
                                     encoding, segments, keyword)
       SELECT $1, 'MELROSE_SMPP', s, $2, 'HELP', 'GSM-7', 1, 'HELP'
       FROM unnest($3::text[]) AS s`,
      [c.client.id, ours, senders],
    );
    const replies = await eventually(
      async () =>
        (await c.http.get(`${c.base}/messages?state=DELIVERED`)).body
          .messages as { recipient: string; body: string }[],
      (messages) => messages.length === 3,
      { what: 'three HELPs answered at one a second', timeout: 30_000 },
    );
    expect(replies.map((m) => m.recipient).sort()).toEqual([...senders].sort());
    expect(new Set(replies.map((m) => m.body))).toEqual(
      new Set(['Default help']),
    );
    expect(await c.balance()).toBe(9.85);
    // At most one a second: some reply's job was handed back and retried.
    const [retried] = await server.app.db.query<{ n: number }>(
      `SELECT max(retry_count)::int AS n FROM pgboss.job
       WHERE name = 'keyword-reply' AND data->>'clientId' = $1`,
      [c.client.id],
    );
    expect(retried!.n).toBeGreaterThan(0);
  });

  it('sends no reply without the balance to pay for it, and the opt-out holds all the same', async () => {
    const c = await customer('0');
    const number = phone();
    const ours = await holdNumber(c.client.id);
    const stop = await receive(c.client.id, number, ours, 'STOP', 'STOP');
    expect((await c.optOuts()).map((o) => o.number)).toEqual([number]);
    // The job completes with nothing sent.
    await expect
      .poll(
        async () =>
          (
            await server.app.db.query<{ state: string }>(
              `SELECT state FROM pgboss.job WHERE name = 'keyword-reply'
               AND data->>'inboundId' = $1`,
              [stop],
            )
          )[0]?.state,
        { timeout: 15_000 },
      )
      .toBe('completed');
    expect((await c.http.get(`${c.base}/messages`)).body.total).toBe(0);
    expect(await c.balance()).toBe(0);
  });
});
