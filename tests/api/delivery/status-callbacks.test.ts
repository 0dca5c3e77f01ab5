// @also-on-pglite: the callback queue runs through pg-boss's PGlite adapter.
import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCallbackSignature } from '../../../src/server/delivery/callbacks/signature.ts';
import { CALLBACKS_PER_CLIENT } from '../../../src/server/delivery/callbacks/worker.ts';
import { waitForMessage } from '../../support/delivery.ts';
import { eventually } from '../../support/eventually.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * Status callbacks: a client's callback URL gets every state change of its messages, signed;
 * failures are retried through the durable queue and every try shows in the message's detail;
 * loopback, link-local and private targets are refused unless allowed.
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
    url: `http://127.0.0.1:${port}/hooks/sms`,
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

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let server: TestServer;
/**
 * Without STATUS_CALLBACK_ALLOW_PRIVATE, as in production; its DNS server never answers
 * (localhost and IP literals need none).
 */
let strict: TestServer;
let silentDns: dgram.Socket;
/** Queries the silent DNS server got (and never answered). */
let silentDnsQueries = 0;
const STRICT_DNS_TIMEOUT_MS = 2_000;

beforeAll(async () => {
  receiver = await startReceiver();
  silentDns = dgram.createSocket('udp4');
  silentDns.on('message', () => (silentDnsQueries += 1));
  await new Promise<void>((r) => silentDns.bind(0, '127.0.0.1', r));
  server = await startServer({ STATUS_CALLBACK_ALLOW_PRIVATE: 'true' });
  strict = await startServer({
    STATUS_CALLBACK_DNS_SERVERS: `127.0.0.1:${silentDns.address().port}`,
    STATUS_CALLBACK_DNS_TIMEOUT_MS: String(STRICT_DNS_TIMEOUT_MS),
  });
});
afterAll(async () => {
  await server?.close();
  await strict?.close();
  await receiver?.close();
  silentDns?.close();
});

async function customer(on: TestServer) {
  const owner = await registerUser(on.url);
  const client = await createClient(owner.http);
  await giveCredit(on.url, client.id, 10);
  const send = async (body: string) => {
    const sent = await owner.http.post(
      `/api/clients/${client.id}/messages/sms`,
      {
        sender: 'Shop',
        recipient: '+44 7700 900123',
        body,
        reference: 'order-7',
      },
    );
    expect(sent.status).toBe(201);
    return sent.body as { id: string };
  };
  return { ...owner, client, send };
}

const eventsOf = (messageId: string) =>
  receiver.received.filter((r) => r.body.messageId === messageId);

describe('statusCallbackUrl on the client', () => {
  it('is set by the owner, who alone sees it with its signing key', async () => {
    const c = await customer(server);
    const path = `/api/clients/${c.client.id}`;
    const before = await c.http.get(path);
    expect(before.body).toMatchObject({
      statusCallbackUrl: null,
      statusCallbackSigningKey: null,
    });
    const set = await c.http.put(path, { statusCallbackUrl: receiver.url });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      name: 'Shop',
      statusCallbackUrl: receiver.url,
      statusCallbackSigningKey: expect.stringMatching(/^whsec_[\w-]{43}$/),
    });
    const key = set.body.statusCallbackSigningKey;
    expect((await c.http.get(path)).body).toMatchObject({
      statusCallbackUrl: receiver.url,
      statusCallbackSigningKey: key,
    });
    // Staff see the client without the key; API-client credentials cannot read it.
    const admin = await adminHttp(server.url).get(
      `/api/admin/clients/${c.client.id}`,
    );
    expect(admin.status).toBe(200);
    expect(admin.body).not.toHaveProperty('statusCallbackSigningKey');
    expect(admin.body).not.toHaveProperty('statusCallbackUrl');
    expect((await clientHttp(server.url, c.client).get(path)).status).toBe(403);
    // A rename keeps the URL; a new URL keeps the key; null removes the URL.
    const renamed = await c.http.put(path, { name: 'Renamed' });
    expect(renamed.body).toMatchObject({
      name: 'Renamed',
      statusCallbackUrl: receiver.url,
    });
    const moved = await c.http.put(path, {
      statusCallbackUrl: `${receiver.url}?v=2`,
    });
    expect(moved.body.statusCallbackSigningKey).toBe(key);
    const removed = await c.http.put(path, { statusCallbackUrl: null });
    expect(removed.body).toMatchObject({
      statusCallbackUrl: null,
      statusCallbackSigningKey: key,
    });
    // The change is audited, without the key, and without the URL's query.
    const audit = await adminHttp(server.url).get(
      `/api/admin/audit?targetId=${c.client.id}&action=client.status_callback_changed`,
    );
    expect(audit.body.events.map((e: any) => e.after)).toEqual([
      { statusCallbackUrl: null },
      { statusCallbackUrl: `${receiver.url}?***` },
      { statusCallbackUrl: receiver.url },
    ]);
  });

  it("keeps the URL's user name, password and query out of the audit log", async () => {
    const c = await customer(server);
    const path = `/api/clients/${c.client.id}`;
    const host = `127.0.0.1:${receiver.port}`;
    const secretUrl = `http://hook-user:hook-pass@${host}/hooks/sms?token=s3cret#frag`;
    expect(
      (await c.http.put(path, { statusCallbackUrl: secretUrl })).status,
    ).toBe(200);
    expect(
      (await c.http.put(path, { statusCallbackUrl: `http://${host}/other` }))
        .status,
    ).toBe(200);
    const audit = await adminHttp(server.url).get(
      `/api/admin/audit?targetId=${c.client.id}&action=client.status_callback_changed`,
    );
    expect(audit.body.events.map((e: any) => [e.before, e.after])).toEqual([
      [
        { statusCallbackUrl: `http://***@${host}/hooks/sms?***#***` },
        { statusCallbackUrl: `http://${host}/other` },
      ],
      [
        { statusCallbackUrl: null },
        { statusCallbackUrl: `http://***@${host}/hooks/sms?***#***` },
      ],
    ]);
    expect(JSON.stringify(audit.body)).not.toMatch(
      /hook-user|hook-pass|s3cret/,
    );
    // The owner still sees the URL as set.
    expect((await c.http.get(path)).body.statusCallbackUrl).toBe(
      `http://${host}/other`,
    );
  });

  it("answers another user's client 404 before looking up the URL's host", async () => {
    const owner = await customer(strict);
    const intruder = await registerUser(strict.url);
    const started = Date.now();
    const answer = await intruder.http.put(`/api/clients/${owner.client.id}`, {
      statusCallbackUrl: 'https://hooks.never-answers.test/sms',
    });
    expect(answer.status).toBe(404);
    expect(Date.now() - started).toBeLessThan(STRICT_DNS_TIMEOUT_MS / 2);
  });

  it('gives up on a host whose DNS never answers after the timeout, without holding up others', async () => {
    const slow = await customer(strict);
    const path = `/api/clients/${slow.client.id}`;
    const started = Date.now();
    const queriesBefore = silentDnsQueries;
    const pending = Array.from({ length: 6 }, (_, i) =>
      slow.http.put(path, {
        statusCallbackUrl: `https://hooks-${i}.never-answers.test/sms`,
      }),
    );
    // The first lookups are asking the silent server.
    await expect
      .poll(() => silentDnsQueries - queriesBefore, {
        timeout: STRICT_DNS_TIMEOUT_MS,
      })
      .toBeGreaterThanOrEqual(2);
    // A new user: registering and its first call hash and check a password on libuv's thread
    // pool, which blocking lookups (getaddrinfo) would be holding.
    const otherStarted = Date.now();
    const other = await customer(strict);
    const literal = await other.http.put(`/api/clients/${other.client.id}`, {
      statusCallbackUrl: 'https://93.184.216.34/hooks',
    });
    expect(literal.status).toBe(200);
    expect(Date.now() - otherStarted).toBeLessThan(STRICT_DNS_TIMEOUT_MS / 2);
    const answers = await Promise.all(pending);
    expect(answers.map((a) => a.status)).toEqual([
      400, 400, 400, 400, 400, 400,
    ]);
    expect(answers[0]!.body.message).toBe(
      `statusCallbackUrl host hooks-0.never-answers.test does not resolve: no DNS answer within ${STRICT_DNS_TIMEOUT_MS / 1000} s (ETIMEOUT)`,
    );
    // Two lookups of one client at a time, the rest waiting their turn: 3 rounds.
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(STRICT_DNS_TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(4 * STRICT_DNS_TIMEOUT_MS + 2_000);
    expect((await slow.http.get(path)).body.statusCallbackUrl).toBeNull();
  }, 20_000);

  it('refuses what is not an http(s) URL, and an empty body', async () => {
    const c = await customer(server);
    const path = `/api/clients/${c.client.id}`;
    for (const statusCallbackUrl of ['ftp://example.com/x', 'not a url', 5]) {
      const answer = await c.http.put(path, { statusCallbackUrl });
      expect({ statusCallbackUrl, status: answer.status }).toEqual({
        statusCallbackUrl,
        status: 400,
      });
    }
    const empty = await c.http.put(path, {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/Give a name, a statusCallbackUrl/);
  });

  it('refuses loopback, link-local and private targets, and names resolving to them, unless allowed', async () => {
    const c = await customer(strict);
    const path = `/api/clients/${c.client.id}`;
    const cases: [string, RegExp][] = [
      ['http://127.0.0.1:8080/x', /must not point to .*loopback.*127\.0\.0\.1/],
      ['http://169.254.169.254/latest/meta-data', /link-local/],
      ['http://10.1.2.3/hook', /private/],
      ['http://192.168.0.10/hook', /private/],
      ['http://[::1]/hook', /loopback/],
      // A DNS name that resolves to 127.0.0.1.
      ['http://localhost:8080/hook', /host localhost resolves to .*loopback/],
    ];
    for (const [url, message] of cases) {
      const answer = await c.http.put(path, { statusCallbackUrl: url });
      expect({ url, status: answer.status }).toEqual({ url, status: 400 });
      expect(answer.body.message).toMatch(/^statusCallbackUrl /);
      expect(answer.body.message).toMatch(message);
    }
    expect((await c.http.get(path)).body.statusCallbackUrl).toBeNull();
  });

  it('checks the target again at send time: a name resolving to 127.0.0.1 gets no request', async () => {
    const c = await customer(strict);
    // Stored behind the PUT's back, as if the name had resolved elsewhere when it was set.
    await strict.app.db.query(
      `UPDATE clients SET status_callback_url = $2, status_callback_signing_key = 'k'
       WHERE id = $1`,
      [c.client.id, `http://localhost:${receiver.port}/hooks/sms`],
    );
    const sent = await c.send('rebound');
    const detail = await eventually(
      async () =>
        (await c.http.get(`/api/clients/${c.client.id}/messages/${sent.id}`))
          .body,
      (m) => m.callbacks.length >= 3,
      { what: 'refused callback attempts' },
    );
    expect(detail.callbacks[0]).toMatchObject({
      attempt: 1,
      status: null,
      error: expect.stringMatching(/localhost resolves to .*loopback/),
    });
    expect(eventsOf(sent.id)).toEqual([]);
  });
});

describe('POST /api/clients/{id}/statusCallback/test', () => {
  it('sends one signed test event now and tells what the receiver answered', async () => {
    const c = await customer(server);
    const path = `/api/clients/${c.client.id}`;
    const none = await c.http.post(`${path}/statusCallback/test`);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Set a status callback URL first');
    const key = (
      await c.http.put(path, { statusCallbackUrl: `${receiver.url}?test=1` })
    ).body.statusCallbackSigningKey;
    const ok = await c.http.post(`${path}/statusCallback/test`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, status: 200, error: null });
    const event = receiver.received.findLast(
      (r) => r.body.clientId === c.client.id,
    )!;
    expect(event.body).toMatchObject({
      messageId: '00000000-0000-0000-0000-000000000000',
      state: 'DELIVERED',
    });
    expect(verifyCallbackSignature(event.signature, event.raw, key)).toBe(true);
    receiver.answer(() => 503);
    try {
      const failed = await c.http.post(`${path}/statusCallback/test`);
      expect(failed.body).toMatchObject({
        ok: false,
        status: 503,
        error: 'receiver answered HTTP 503',
      });
    } finally {
      receiver.answer(() => 200);
    }
    // Only the owner: API-client credentials are refused.
    expect(
      (
        await clientHttp(server.url, c.client).post(
          `${path}/statusCallback/test`,
        )
      ).status,
    ).toBe(403);
  });

  it('answers 429 with Retry-After beyond 10 test events a minute for one client', async () => {
    const c = await customer(server);
    const path = `/api/clients/${c.client.id}`;
    await c.http.put(path, { statusCallbackUrl: receiver.url });
    for (let i = 0; i < 10; i += 1) {
      expect((await c.http.post(`${path}/statusCallback/test`)).status).toBe(
        200,
      );
    }
    const refused = await c.http.post(`${path}/statusCallback/test`);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      'At most 10 test events a minute. Try again later.',
    );
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another client of the same owner has its own allowance.
    const other = await createClient(c.http, 'Other');
    await c.http.put(`/api/clients/${other.id}`, {
      statusCallbackUrl: receiver.url,
    });
    expect(
      (await c.http.post(`/api/clients/${other.id}/statusCallback/test`))
        .status,
    ).toBe(200);
  });
});

describe('POST /api/clients/{clientId}/statusCallback/rotateKey', () => {
  it('gives the owner a new key; the old one signs nothing afterwards', async () => {
    const c = await customer(server);
    const path = `/api/clients/${c.client.id}`;
    const rotate = `${path}/statusCallback/rotateKey`;
    const none = await c.http.post(rotate);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Set a status callback URL first');
    const old = (await c.http.put(path, { statusCallbackUrl: receiver.url }))
      .body.statusCallbackSigningKey;

    const rotated = await c.http.post(rotate);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      statusCallbackSigningKey: expect.stringMatching(/^whsec_[\w-]{43}$/),
    });
    const key = rotated.body.statusCallbackSigningKey;
    expect(key).not.toBe(old);
    expect((await c.http.get(path)).body.statusCallbackSigningKey).toBe(key);

    // A test event and a message's events are signed with the new key only.
    await c.http.post(`${path}/statusCallback/test`);
    const sent = await c.send('after rotation');
    await eventually(
      () => eventsOf(sent.id),
      (e) => e.length >= 3,
      { what: 'three events' },
    );
    const signed = [
      receiver.received.findLast(
        (r) => r.body.clientId === c.client.id && r.body.reference === 'test',
      )!,
      ...eventsOf(sent.id),
    ];
    for (const event of signed) {
      expect(verifyCallbackSignature(event.signature, event.raw, key)).toBe(
        true,
      );
      expect(verifyCallbackSignature(event.signature, event.raw, old)).toBe(
        false,
      );
    }

    // Audited, never with a key.
    const audit = await adminHttp(server.url).get(
      `/api/admin/audit?targetId=${c.client.id}&action=client.signing_key_rotated`,
    );
    expect(audit.body.events).toEqual([
      expect.objectContaining({
        action: 'client.signing_key_rotated',
        actorUserId: c.user.id,
        targetType: 'client',
        targetId: c.client.id,
        before: null,
        after: null,
      }),
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(key);
    expect(JSON.stringify(audit.body)).not.toContain(old);
  });

  it("is the owner's alone: API-client credentials 403, another user and staff 404", async () => {
    const c = await customer(server);
    const path = `/api/clients/${c.client.id}`;
    const key = (await c.http.put(path, { statusCallbackUrl: receiver.url }))
      .body.statusCallbackSigningKey;
    const rotate = `${path}/statusCallback/rotateKey`;
    expect((await clientHttp(server.url, c.client).post(rotate)).status).toBe(
      403,
    );
    const intruder = await registerUser(server.url);
    expect((await intruder.http.post(rotate)).status).toBe(404);
    expect((await adminHttp(server.url).post(rotate)).status).toBe(404);
    expect((await c.http.get(path)).body.statusCallbackSigningKey).toBe(key);
  });
});

describe('status callback events', () => {
  it('POSTs every state change, signed, and lists each try on the message', async () => {
    const c = await customer(server);
    const path = `/api/clients/${c.client.id}`;
    const key = (await c.http.put(path, { statusCallbackUrl: receiver.url }))
      .body.statusCallbackSigningKey;
    const sent = await c.send('Hello');
    await waitForMessage(c.http, c.client.id, sent.id);
    const events = await eventually(
      () => eventsOf(sent.id),
      (e) => e.length >= 3,
      { what: 'three events' },
    );
    expect(events.map((e) => e.body.state).sort()).toEqual([
      'ACCEPTED',
      'DELIVERED',
      'SUBMITTED',
    ]);
    for (const event of events) {
      expect(verifyCallbackSignature(event.signature, event.raw, key)).toBe(
        true,
      );
      expect(verifyCallbackSignature(event.signature, event.raw, 'other')).toBe(
        false,
      );
    }
    const delivered = events.find((e) => e.body.state === 'DELIVERED')!;
    expect(Object.keys(delivered.body)).toEqual([
      'messageId',
      'clientId',
      'reference',
      'state',
      'deliveryMethod',
      'error',
      'errorCode',
      'providerErrorCode',
      'dateUpdated',
      'simulated',
    ]);
    expect(delivered.body).toMatchObject({
      messageId: sent.id,
      clientId: c.client.id,
      reference: 'order-7',
      deliveryMethod: 'MELROSE_SMPP',
      error: null,
      // Nothing configured in this server: the simulator took it, and every event says so.
      simulated: true,
    });
    expect(new Date(delivered.body.dateUpdated).toISOString()).toBe(
      delivered.body.dateUpdated,
    );
    const detail = await eventually(
      async () => (await c.http.get(`${path}/messages/${sent.id}`)).body,
      (m) => m.callbacks.length >= 3,
      { what: 'callbacks recorded' },
    );
    expect(
      detail.callbacks
        .map((cb: any) => [cb.state, cb.attempt, cb.status, cb.error])
        .sort(),
    ).toEqual([
      ['ACCEPTED', 1, 200, null],
      ['DELIVERED', 1, 200, null],
      ['SUBMITTED', 1, 200, null],
    ]);
    // A client without a URL gets no events and an empty list.
    const quiet = await customer(server);
    const other = await quiet.send('nobody listens');
    await waitForMessage(quiet.http, quiet.client.id, other.id);
    expect(
      (
        await quiet.http.get(
          `/api/clients/${quiet.client.id}/messages/${other.id}`,
        )
      ).body.callbacks,
    ).toEqual([]);
    expect(eventsOf(other.id)).toEqual([]);
  });

  it('a CANCELED event names who cancelled it, with no delivery error code', async () => {
    const c = await customer(server);
    const path = `/api/clients/${c.client.id}`;
    await c.http.put(path, { statusCallbackUrl: receiver.url });
    const schedule = async (body: string) => {
      const sent = await c.http.post(`${path}/messages/sms`, {
        sender: 'Shop',
        recipient: '447700900123',
        body,
        sendAt: new Date(Date.now() + 60_000).toISOString(),
      });
      expect(sent.status).toBe(201);
      return sent.body.id as string;
    };
    const byOwner = await schedule('cancelled by its owner');
    expect(
      (await c.http.post(`${path}/messages/${byOwner}/cancel`)).status,
    ).toBe(200);
    const byStaff = await schedule('stopped by staff');
    const stop = await adminHttp(server.url).post(
      `/api/admin/clients/${c.client.id}/messages/cancel`,
      {},
    );
    expect(stop.body).toEqual({ canceled: 1 });
    for (const [id, error] of [
      [byOwner, 'canceled by the owner'],
      [byStaff, 'canceled by staff'],
    ] as const) {
      const events = await eventually(
        () => eventsOf(id),
        (e) => e.some((event) => event.body.state === 'CANCELED'),
        { what: `the CANCELED event of ${id}` },
      );
      // Order-free: each event is its own job.
      expect(events.map((e) => [e.body.state, e.body.error]).sort()).toEqual([
        ['CANCELED', error],
        ['SCHEDULED', null],
      ]);
      expect(
        events.find((e) => e.body.state === 'CANCELED')!.body,
      ).toMatchObject({ errorCode: null, providerErrorCode: null });
    }
  });

  it('retries after a 500 through the queue, the first retry within 30 s', async () => {
    const c = await customer(server);
    const path = `/api/clients/${c.client.id}`;
    const key = (await c.http.put(path, { statusCallbackUrl: receiver.url }))
      .body.statusCallbackSigningKey;
    let failures = 0;
    receiver.answer((body) =>
      body.state === 'DELIVERED' && failures++ === 0 ? 500 : 200,
    );
    try {
      const sent = await c.send('try again');
      const delivered = await eventually(
        () => eventsOf(sent.id).filter((e) => e.body.state === 'DELIVERED'),
        (e) => e.some((x) => x.answered === 200),
        { what: 'a DELIVERED event answered 200', timeout: 30_000 },
      );
      expect(delivered.map((e) => e.answered)).toEqual([500, 200]);
      expect(delivered[0]!.raw).toBe(delivered[1]!.raw); // the same event
      expect(
        verifyCallbackSignature(
          delivered[1]!.signature,
          delivered[1]!.raw,
          key,
        ),
      ).toBe(true);
      const gap = delivered[1]!.at - delivered[0]!.at;
      expect(gap).toBeGreaterThanOrEqual(14_000);
      expect(gap).toBeLessThan(30_000);
      const detail = await eventually(
        async () => (await c.http.get(`${path}/messages/${sent.id}`)).body,
        (m) =>
          m.callbacks.filter((cb: any) => cb.state === 'DELIVERED').length >= 2,
        { what: 'both tries recorded' },
      );
      expect(
        detail.callbacks
          .filter((cb: any) => cb.state === 'DELIVERED')
          .map((cb: any) => [cb.attempt, cb.status, cb.error]),
      ).toEqual([
        [1, 500, 'receiver answered HTTP 500'],
        [2, 200, null],
      ]);
    } finally {
      receiver.answer(() => 200);
    }
  }, 45_000);
});

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

describe('fairness between clients', () => {
  it("a receiver that never answers holds a few slots, and never delays another client's callbacks", async () => {
    const hung = await startHangingReceiver();
    const a = await customer(server);
    const b = await customer(server);
    try {
      await a.http.put(`/api/clients/${a.client.id}`, {
        statusCallbackUrl: hung.url,
      });
      await b.http.put(`/api/clients/${b.client.id}`, {
        statusCallbackUrl: receiver.url,
      });
      // 50 messages: 150 events for A's receiver, each try held for 10 s.
      for (let i = 0; i < 50; i += 1) await a.send(`flood ${i}`);
      await eventually(
        () => hung.stats().open,
        (open) => open > 0,
        { what: "A's receiver holding tries" },
      );
      const sentAt = Date.now();
      const sent = await b.send('on time');
      // Before: one worker took 20 of A's jobs and waited for all of them, 10 s a batch.
      const [first] = await eventually(
        () => eventsOf(sent.id),
        (events) => events.length > 0,
        { what: "B's first callback", timeout: 60_000 },
      );
      expect(first!.at - sentAt).toBeLessThan(5_000);
      expect(hung.stats().maxOpen).toBeLessThanOrEqual(CALLBACKS_PER_CLIENT);
    } finally {
      // A's queued events find no URL any more and end without a request.
      await a.http.put(`/api/clients/${a.client.id}`, {
        statusCallbackUrl: null,
      });
      await hung.close();
    }
  }, 90_000);
});
