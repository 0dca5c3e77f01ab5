// @also-on-pglite: the trigger on inbound_messages and the callback queue run on PGlite too.
import { randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCallbackSignature } from '../../../../src/server/delivery/callbacks/signature.ts';
import { CALLBACKS_PER_CLIENT } from '../../../../src/server/delivery/callbacks/worker.ts';
import { InboundCallbackEventSchema } from '../../../../src/shared/schemas/inbound-callbacks.ts';
import { eventually } from '../../../support/eventually.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  registerUser,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';
import {
  sendVonageInbound,
  vonageInboundFields,
  type InboundPlan,
} from '../../../support/vonage-server.ts';

/**
 * Inbound callbacks (CONTRACT.md "Two-way messaging", Inbound callbacks): each message stored in
 * inbound_messages for a client with an inboundCallbackUrl is POSTed there as JSON, signed with
 * the client's statusCallbackSigningKey, retried, fair across clients and address-checked by the
 * status callbacks' machinery. The events are queued by the trigger on inbound_messages, so the
 * tests store inbound messages as the inbound writer does (one INSERT … ON CONFLICT DO NOTHING
 * per write) and watch a real local receiver.
 */

interface Received {
  at: number;
  signature: string | undefined;
  raw: string;
  body: any;
  answered: number;
}

/** A local receiver that answers 200, or what `plan` says for a request. */
async function startReceiver() {
  const received: Received[] = [];
  let plan: (body: any) => number = () => 200;
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = JSON.parse(raw);
    const status = plan(body);
    received.push({
      at: Date.now(),
      signature: request.headers['x-signature'] as string | undefined,
      raw,
      body,
      answered: status,
    });
    response.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks/inbound`,
    received,
    answer(next: (body: any) => number) {
      plan = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A receiver that takes each request and never answers it. */
async function startHangingReceiver() {
  let open = 0;
  let maxOpen = 0;
  let requests = 0;
  const server = http.createServer((request) => {
    requests += 1;
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    request.socket.on('close', () => {
      open -= 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/never`,
    stats: () => ({ open, maxOpen, requests }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const VONAGE_SIGNATURE = {
  secret: 'vonage-signature-secret',
  method: 'sha256',
} as const;
const GATEWAY_TOKEN = 'gateway-token';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** STATUS_CALLBACK_ALLOW_PRIVATE, so that the local receiver may be called. */
let server: TestServer;
/** As in production: loopback, link-local and private targets refused. */
let strict: TestServer;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startServer({
    STATUS_CALLBACK_ALLOW_PRIVATE: 'true',
    // The inbound webhooks, signed as in production.
    VONAGE_API_KEY: 'key-1',
    VONAGE_API_SECRET: 'secret-1',
    VONAGE_SIGNATURE_SECRET: VONAGE_SIGNATURE.secret,
    VONAGE_SIGNATURE_METHOD: VONAGE_SIGNATURE.method,
    WORLD_SPECIAL_TOKEN: GATEWAY_TOKEN,
  });
  strict = await startServer();
});
afterAll(async () => {
  await server?.close();
  await strict?.close();
  await receiver?.close();
});

async function customer(on: TestServer) {
  const owner = await registerUser(on.url);
  const client = await createClient(owner.http);
  return { ...owner, client, path: `/api/clients/${client.id}` };
}

interface InboundRow {
  clientId: string;
  from?: string;
  to?: string;
  body?: string;
  keyword?: 'STOP' | 'START' | 'HELP' | null;
  /** The provider's id: stored once per method and id, as the inbound writer does. */
  providerMessageId?: string | null;
}

let providerIds = 0;
const nextProviderId = () => `test-${process.pid}-${(providerIds += 1)}`;

/**
 * Stores inbound messages in one statement, as the inbound writer does (a duplicate, by method
 * and provider id, is skipped): the ids of the rows stored.
 */
async function storeInbound(
  on: TestServer,
  rows: InboundRow[],
): Promise<string[]> {
  const stored = await on.app.db.query<{ id: string }>(
    `INSERT INTO inbound_messages (client_id, method, provider_message_id, from_number,
                                   to_number, body, encoding, segments, keyword)
     SELECT r."clientId", 'VONAGE_SMS', r."providerMessageId", r."from", r."to", r.body,
            'GSM-7', 1, r.keyword
     FROM jsonb_to_recordset($1::jsonb) AS r("clientId" uuid, "providerMessageId" text,
                                            "from" text, "to" text, body text, keyword text)
     ON CONFLICT (method, provider_message_id) WHERE provider_message_id IS NOT NULL
       DO NOTHING
     RETURNING id`,
    [
      JSON.stringify(
        rows.map((r) => ({
          clientId: r.clientId,
          providerMessageId:
            r.providerMessageId === undefined
              ? nextProviderId()
              : r.providerMessageId,
          from: r.from ?? '447700900123',
          to: r.to ?? '447700900001',
          body: r.body ?? 'Hello there',
          keyword: r.keyword ?? null,
        })),
      ),
    ],
  );
  return stored.map((r) => r.id);
}

/** The callback jobs queued (each try is one job) for an inbound message. */
async function queuedJobs(on: TestServer, messageId: string): Promise<number> {
  const [row] = await on.app.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pgboss.job
     WHERE name = 'status-callback' AND data->>'messageId' = $1`,
    [messageId],
  );
  return row!.n;
}

/** The tries kept for an inbound message's callback, in order. */
async function attemptsOf(on: TestServer, messageId: string) {
  return on.app.db.query<{
    attempt: number;
    http_status: number | null;
    error: string | null;
  }>(
    `SELECT attempt, http_status, error FROM inbound_callbacks
     WHERE inbound_message_id = $1 ORDER BY id`,
    [messageId],
  );
}

const eventsOf = (messageId: string) =>
  receiver.received.filter((r) => r.body.messageId === messageId);

describe('inboundCallbackUrl on the client', () => {
  it('is set by the owner, shown to the owner, makes the signing key when there is none, and null clears it', async () => {
    const c = await customer(server);
    expect((await c.http.get(c.path)).body).toMatchObject({
      statusCallbackUrl: null,
      statusCallbackSigningKey: null,
      inboundCallbackUrl: null,
    });
    const set = await c.http.put(c.path, { inboundCallbackUrl: receiver.url });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      name: 'Shop',
      statusCallbackUrl: null,
      inboundCallbackUrl: receiver.url,
      statusCallbackSigningKey: expect.stringMatching(/^whsec_[\w-]{43}$/),
    });
    const key = set.body.statusCallbackSigningKey;
    expect((await c.http.get(c.path)).body).toMatchObject({
      inboundCallbackUrl: receiver.url,
      statusCallbackSigningKey: key,
    });
    // One key signs both kinds: a status callback URL set later keeps it.
    const both = await c.http.put(c.path, {
      statusCallbackUrl: `${receiver.url}?kind=status`,
    });
    expect(both.body).toMatchObject({
      statusCallbackUrl: `${receiver.url}?kind=status`,
      inboundCallbackUrl: receiver.url,
      statusCallbackSigningKey: key,
    });
    // A rename and a status URL change leave the inbound URL alone.
    const renamed = await c.http.put(c.path, {
      name: 'Renamed',
      statusCallbackUrl: null,
    });
    expect(renamed.body).toMatchObject({
      name: 'Renamed',
      statusCallbackUrl: null,
      inboundCallbackUrl: receiver.url,
    });
    // Staff's view shows neither URL nor key (as for statusCallbackUrl); API-client
    // credentials cannot read the owner's view.
    const admin = await adminHttp(server.url).get(
      `/api/admin/clients/${c.client.id}`,
    );
    expect(admin.status).toBe(200);
    expect(admin.body).not.toHaveProperty('inboundCallbackUrl');
    expect(admin.body).not.toHaveProperty('statusCallbackSigningKey');
    expect((await clientHttp(server.url, c.client).get(c.path)).status).toBe(
      403,
    );
    // An empty field clears it, as null does; the key stays.
    const cleared = await c.http.put(c.path, { inboundCallbackUrl: '' });
    expect(cleared.body).toMatchObject({
      inboundCallbackUrl: null,
      statusCallbackSigningKey: key,
    });
    await c.http.put(c.path, {
      inboundCallbackUrl: 'http://u:p@127.0.0.1:9/in?token=s3cret',
    });
    expect(
      (await c.http.put(c.path, { inboundCallbackUrl: null })).body
        .inboundCallbackUrl,
    ).toBeNull();
    // Each change is audited, the URL's credentials and query redacted.
    const audit = await adminHttp(server.url).get(
      `/api/admin/audit?targetId=${c.client.id}&action=client.inbound_callback_changed`,
    );
    expect(audit.status).toBe(200);
    expect(audit.body.events.map((e: any) => [e.before, e.after])).toEqual([
      [
        { inboundCallbackUrl: 'http://***@127.0.0.1:9/in?***' },
        { inboundCallbackUrl: null },
      ],
      [
        { inboundCallbackUrl: null },
        { inboundCallbackUrl: 'http://***@127.0.0.1:9/in?***' },
      ],
      [{ inboundCallbackUrl: receiver.url }, { inboundCallbackUrl: null }],
      [{ inboundCallbackUrl: null }, { inboundCallbackUrl: receiver.url }],
    ]);
    expect(JSON.stringify(audit.body)).not.toMatch(/s3cret|u:p@/);
  });

  it('refuses what is not an http(s) URL, naming the field', async () => {
    const c = await customer(server);
    for (const inboundCallbackUrl of ['ftp://example.com/x', 'not a url', 5]) {
      const answer = await c.http.put(c.path, { inboundCallbackUrl });
      expect({ inboundCallbackUrl, status: answer.status }).toEqual({
        inboundCallbackUrl,
        status: 400,
      });
      expect(answer.body.message).toMatch(/Inbound callback URL must be/);
    }
    const empty = await c.http.put(c.path, {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(
      /Give a name, a statusCallbackUrl or an inboundCallbackUrl/,
    );
  });

  it("answers another user's client 404", async () => {
    const c = await customer(server);
    const intruder = await registerUser(server.url);
    const answer = await intruder.http.put(c.path, {
      inboundCallbackUrl: receiver.url,
    });
    expect(answer.status).toBe(404);
    expect((await c.http.get(c.path)).body.inboundCallbackUrl).toBeNull();
  });

  it('refuses loopback, link-local and private targets, and names resolving to them, as for status callbacks', async () => {
    const c = await customer(strict);
    const cases: [string, RegExp][] = [
      ['http://127.0.0.1:8080/x', /must not point to .*loopback.*127\.0\.0\.1/],
      ['http://169.254.169.254/latest/meta-data', /link-local/],
      ['http://10.1.2.3/hook', /private/],
      ['http://192.168.0.10/hook', /private/],
      ['http://[::1]/hook', /loopback/],
      ['http://[::ffff:127.0.0.1]/hook', /loopback/],
      ['http://localhost:8080/hook', /host localhost resolves to .*loopback/],
    ];
    for (const [url, message] of cases) {
      const answer = await c.http.put(c.path, { inboundCallbackUrl: url });
      expect({ url, status: answer.status }).toEqual({ url, status: 400 });
      expect(answer.body.message).toMatch(/^inboundCallbackUrl /);
      expect(answer.body.message).toMatch(message);
      // The status callback URL of the same request is not set either.
      const both = await c.http.put(c.path, {
        statusCallbackUrl: 'https://93.184.216.34/status',
        inboundCallbackUrl: url,
      });
      expect(both.status).toBe(400);
    }
    expect((await c.http.get(c.path)).body).toMatchObject({
      inboundCallbackUrl: null,
      statusCallbackUrl: null,
    });
    // A public literal address is taken (no lookup needed).
    const ok = await c.http.put(c.path, {
      inboundCallbackUrl: 'https://93.184.216.34/inbound',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.inboundCallbackUrl).toBe('https://93.184.216.34/inbound');
  });
});

describe('inbound callback events', () => {
  it('POSTs each stored inbound message once, signed with the key, in the contract format', async () => {
    const c = await customer(server);
    const key = (await c.http.put(c.path, { inboundCallbackUrl: receiver.url }))
      .body.statusCallbackSigningKey;
    const quiet = await customer(server); // no inbound callback URL
    const providerMessageId = nextProviderId();
    // One write storing messages of both clients: only c's are told.
    const [id, keywordId, quietId] = await storeInbound(server, [
      {
        clientId: c.client.id,
        from: '447700900123',
        to: '447700900001',
        body: 'Ünïcödé ✓ "quoted" \\ back',
        providerMessageId,
      },
      { clientId: c.client.id, body: ' unsubscribe ', keyword: 'STOP' },
      { clientId: quiet.client.id },
    ]);
    const [event] = await eventually(
      () => eventsOf(id!),
      (events) => events.length > 0,
      { what: 'the inbound callback' },
    );
    const [row] = await server.app.db.query<{ date_received: Date }>(
      'SELECT date_received FROM inbound_messages WHERE id = $1',
      [id],
    );
    expect(event!.raw).toBe(
      JSON.stringify({
        type: 'inbound',
        messageId: id,
        clientId: c.client.id,
        from: '447700900123',
        to: '447700900001',
        body: 'Ünïcödé ✓ "quoted" \\ back',
        keyword: null,
        dateReceived: row!.date_received.toISOString(),
      }),
    );
    expect(InboundCallbackEventSchema.strict().parse(event!.body)).toEqual(
      event!.body,
    );
    expect(verifyCallbackSignature(event!.signature, event!.raw, key)).toBe(
      true,
    );
    expect(verifyCallbackSignature(event!.signature, event!.raw, 'other')).toBe(
      false,
    );
    const [stop] = await eventually(
      () => eventsOf(keywordId!),
      (events) => events.length > 0,
      { what: 'the STOP callback' },
    );
    expect(stop!.body).toMatchObject({
      body: ' unsubscribe ',
      keyword: 'STOP',
    });
    // Each try is kept.
    await expect
      .poll(async () => attemptsOf(server, id!))
      .toEqual([{ attempt: 1, http_status: 200, error: null }]);
    // The other client has no URL: nothing was even queued for its message.
    expect(await queuedJobs(server, quietId!)).toBe(0);
    // The same message arriving again is not stored, so not told again; a write that rolls
    // back tells nothing. Both are decided in the write's transaction: the queue shows it.
    expect(
      await storeInbound(server, [
        { clientId: c.client.id, providerMessageId, body: 'again' },
      ]),
    ).toEqual([]);
    expect(await queuedJobs(server, id!)).toBe(1);
    const rolledBack = await server.app.db
      .transaction(async (tx) => {
        const [stored] = await tx.query<{ id: string }>(
          `INSERT INTO inbound_messages (client_id, method, from_number, to_number, body,
                                         encoding, segments)
           VALUES ($1, 'VONAGE_SMS', '447700900999', '447700900001', 'gone', 'GSM-7', 1)
           RETURNING id`,
          [c.client.id],
        );
        expect(
          (
            await tx.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pgboss.job
               WHERE name = 'status-callback' AND data->>'messageId' = $1`,
              [stored!.id],
            )
          )[0]!.n,
        ).toBe(1);
        throw Object.assign(new Error('roll back'), { rolledBack: stored!.id });
      })
      .catch((error: { rolledBack?: string }) => error.rolledBack);
    expect(rolledBack).toBeDefined();
    expect(await queuedJobs(server, rolledBack!)).toBe(0);
    expect(eventsOf(id!)).toHaveLength(1);
  });

  it('retries after a 500 through the queue, the first retry within 30 s, the same bytes', async () => {
    const c = await customer(server);
    const key = (await c.http.put(c.path, { inboundCallbackUrl: receiver.url }))
      .body.statusCallbackSigningKey;
    const [id] = await storeInbound(server, [
      { clientId: c.client.id, body: 'try again' },
    ]);
    let failures = 0;
    receiver.answer((body) =>
      body.messageId === id && failures++ === 0 ? 500 : 200,
    );
    try {
      const events = await eventually(
        () => eventsOf(id!),
        (e) => e.some((x) => x.answered === 200),
        { what: 'the inbound callback answered 200', timeout: 30_000 },
      );
      expect(events.map((e) => e.answered)).toEqual([500, 200]);
      expect(events[0]!.raw).toBe(events[1]!.raw); // the same event
      expect(
        verifyCallbackSignature(events[1]!.signature, events[1]!.raw, key),
      ).toBe(true);
      const gap = events[1]!.at - events[0]!.at;
      expect(gap).toBeGreaterThanOrEqual(14_000);
      expect(gap).toBeLessThan(30_000);
      await expect
        .poll(async () => attemptsOf(server, id!))
        .toEqual([
          { attempt: 1, http_status: 500, error: 'receiver answered HTTP 500' },
          { attempt: 2, http_status: 200, error: null },
        ]);
    } finally {
      receiver.answer(() => 200);
    }
  }, 45_000);

  it('checks the target again at send time: a name resolving to 127.0.0.1 gets no request', async () => {
    const c = await customer(strict);
    // Stored behind the PUT's back, as if the name had resolved elsewhere when it was set.
    await strict.app.db.query(
      `UPDATE clients SET inbound_callback_url = $2, status_callback_signing_key = 'k'
       WHERE id = $1`,
      [c.client.id, `http://localhost:${receiver.port}/hooks/inbound`],
    );
    const [id] = await storeInbound(strict, [
      { clientId: c.client.id, body: 'rebound' },
    ]);
    const attempts = await eventually(
      () => attemptsOf(strict, id!),
      (a) => a.length >= 1,
      { what: 'the refused attempt' },
    );
    expect(attempts[0]).toEqual({
      attempt: 1,
      http_status: null,
      error: expect.stringMatching(
        /^inboundCallbackUrl host localhost resolves to .*loopback/,
      ),
    });
    expect(eventsOf(id!)).toEqual([]);
    // Refused like a failed try: the next one is queued (and refused again at its time).
    expect(await queuedJobs(strict, id!)).toBe(2);
  });

  it('stops for a client whose URL was removed meanwhile: its queued events end without a request', async () => {
    const c = await customer(server);
    await c.http.put(c.path, { inboundCallbackUrl: receiver.url });
    // Queued while the worker is told nothing: removed before it runs (same transaction).
    const id = await server.app.db.transaction(async (tx) => {
      const [stored] = await tx.query<{ id: string }>(
        `INSERT INTO inbound_messages (client_id, method, from_number, to_number, body,
                                       encoding, segments)
         VALUES ($1, 'VONAGE_SMS', '447700900998', '447700900001', 'late', 'GSM-7', 1)
         RETURNING id`,
        [c.client.id],
      );
      await tx.query(
        'UPDATE clients SET inbound_callback_url = NULL WHERE id = $1',
        [c.client.id],
      );
      return stored!.id;
    });
    await expect
      .poll(async () => {
        const [job] = await server.app.db.query<{ state: string }>(
          `SELECT state FROM pgboss.job
           WHERE name = 'status-callback' AND data->>'messageId' = $1`,
          [id],
        );
        return job?.state;
      })
      .toBe('completed');
    expect(eventsOf(id)).toEqual([]);
    expect(await attemptsOf(server, id)).toEqual([]);
  });
});

describe('fairness between clients', () => {
  it("a flood of inbound to one client's unanswering receiver never delays another client's inbound callbacks", async () => {
    const hung = await startHangingReceiver();
    const a = await customer(server);
    const b = await customer(server);
    try {
      await a.http.put(a.path, { inboundCallbackUrl: hung.url });
      await b.http.put(b.path, { inboundCallbackUrl: receiver.url });
      // 150 inbound messages for A's receiver, each try held for 10 s.
      await storeInbound(
        server,
        Array.from({ length: 150 }, (_, i) => ({
          clientId: a.client.id,
          body: `flood ${i}`,
        })),
      );
      await eventually(
        () => hung.stats().open,
        (open) => open > 0,
        { what: "A's receiver holding tries" },
      );
      const storedAt = Date.now();
      const [id] = await storeInbound(server, [
        { clientId: b.client.id, body: 'on time' },
      ]);
      const [first] = await eventually(
        () => eventsOf(id!),
        (events) => events.length > 0,
        { what: "B's inbound callback", timeout: 60_000 },
      );
      expect(first!.at - storedAt).toBeLessThan(5_000);
      expect(hung.stats().maxOpen).toBeLessThanOrEqual(CALLBACKS_PER_CLIENT);
    } finally {
      // A's queued events find no URL any more and end without a request.
      await a.http.put(a.path, { inboundCallbackUrl: null });
      await hung.close();
    }
  }, 90_000);
});

describe('through the inbound webhooks (the one inbound writer)', () => {
  /** A fresh number held by `clientId` (the numbers API is another helper's). */
  async function holdNumber(clientId: string): Promise<string> {
    const number = `44700${randomInt(1e6, 1e7)}`;
    await server.app.db.query(
      'INSERT INTO numbers (number, client_id) VALUES ($1, $2)',
      [number, clientId],
    );
    return number;
  }
  const vonage = (plan: Omit<InboundPlan, 'signature'>) =>
    vonageInboundFields({ ...plan, signature: VONAGE_SIGNATURE });
  const vonageUrl = () => `${server.url}/api/webhooks/vonage/inbound`;

  it("tells each message stored from Vonage and the gateway once, joined, to its number holder's URL, signed", async () => {
    const c = await customer(server);
    const key = (await c.http.put(c.path, { inboundCallbackUrl: receiver.url }))
      .body.statusCallbackSigningKey;
    const quiet = await customer(server); // holds a number, has no URL
    const number = await holdNumber(c.client.id);
    const quietNumber = await holdNumber(quiet.client.id);
    const from = `4477009${randomInt(1e5, 1e6)}`;

    const hello = vonage({ from, to: number, text: 'Hello from Vonage' });
    for (const method of ['GET', 'POST'] as const) {
      // Vonage delivers it twice: stored once, told once.
      expect((await sendVonageInbound(vonageUrl(), hello, method)).status).toBe(
        200,
      );
    }
    expect(
      (
        await sendVonageInbound(
          vonageUrl(),
          vonage({ from, to: number, text: 'Stop' }),
          'POST-JSON',
        )
      ).status,
    ).toBe(200);
    // A long message's parts, the last first: one event, when joined.
    const texts = ['Part one, ', 'part two.'];
    const parts = texts.map((text, i) =>
      vonage({
        from,
        to: number,
        text,
        concat: { ref: 9, total: 2, part: i + 1 },
      }),
    );
    expect((await sendVonageInbound(vonageUrl(), parts[1]!)).status).toBe(200);
    expect((await sendVonageInbound(vonageUrl(), parts[0]!)).status).toBe(200);
    const gatewayId = `gw-${randomInt(1e9)}`;
    const gateway = await fetch(
      `${server.url}/api/webhooks/world-special/inbound`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${GATEWAY_TOKEN}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          id: gatewayId,
          from,
          to: number,
          text: 'Through the gateway',
        }),
      },
    );
    expect(gateway.status).toBe(200);
    // Another client's number (no URL) and a number nobody holds: nothing told.
    for (const to of [quietNumber, '447000000001']) {
      expect(
        (
          await sendVonageInbound(
            vonageUrl(),
            vonage({ from, to, text: 'Not for c' }),
          )
        ).status,
      ).toBe(200);
    }

    const stored = await server.app.db.query<{
      id: string;
      body: string;
      keyword: string | null;
      date_received: Date;
    }>(
      `SELECT id, body, keyword, date_received FROM inbound_messages
       WHERE to_number = $1 ORDER BY date_received, id`,
      [number],
    );
    expect(stored.map((m) => [m.body, m.keyword])).toEqual([
      ['Hello from Vonage', null],
      ['Stop', 'STOP'],
      ['Part one, part two.', null],
      ['Through the gateway', null],
    ]);
    for (const message of stored) {
      const [event, ...again] = await eventually(
        () => eventsOf(message.id),
        (events) => events.length > 0,
        { what: `the callback of "${message.body}"` },
      );
      expect(again).toEqual([]);
      expect(JSON.parse(event!.raw)).toEqual({
        type: 'inbound',
        messageId: message.id,
        clientId: c.client.id,
        from,
        to: number,
        body: message.body,
        keyword: message.keyword,
        dateReceived: message.date_received.toISOString(),
      });
      expect(verifyCallbackSignature(event!.signature, event!.raw, key)).toBe(
        true,
      );
      // One event queued per stored message: the duplicate and the parts added none.
      expect(await queuedJobs(server, message.id)).toBe(1);
    }
    const [quietMessage] = await server.app.db.query<{ id: string }>(
      'SELECT id FROM inbound_messages WHERE to_number = $1',
      [quietNumber],
    );
    expect(quietMessage).toBeDefined();
    expect(await queuedJobs(server, quietMessage!.id)).toBe(0);
    expect(
      receiver.received.filter((r) => r.body.clientId === quiet.client.id),
    ).toEqual([]);
  });
});
