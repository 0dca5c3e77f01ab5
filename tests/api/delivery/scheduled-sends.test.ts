// @also-on-pglite: deferred jobs (startAfter) and their waking go through pg-boss's PGlite adapter.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_QUEUE } from '../../../src/server/delivery/queue.ts';
import { waitForMessage } from '../../support/delivery.ts';
import type { HttpClient } from '../../support/http.ts';
import { expectLedgerBalanced } from '../../support/ledger.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
  setRoles,
} from '../../support/seed.ts';
import {
  cleanUp,
  restartableServer,
  type Restartables,
} from '../../support/restartable.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * Scheduled sends (issue 20; CONTRACT.md "Campaigns: scheduled and bulk sends"): a send with
 * `sendAt` is charged at once and held SCHEDULED, released into delivery by its job at sendAt
 * and delivered (the built-in simulator); a cancel before then makes it CANCELED and refunds it
 * exactly once, whatever races it: another cancel, or the release itself.
 */
let server: TestServer;
/** Status callbacks of the customers' clients, as received. */
const callbacks: { messageId: string; state: string; dateUpdated: string }[] =
  [];
let receiver: http.Server;
let receiverUrl: string;

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      callbacks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  server = await startServer({ STATUS_CALLBACK_ALLOW_PRIVATE: 'true' });
});
afterAll(async () => {
  await server?.close();
  receiver?.closeAllConnections();
  await new Promise((done) => receiver?.close(done));
});

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A customer with a funded client whose status callbacks reach the receiver. */
async function customer(credit = 10, on = server.url) {
  const owner = await registerUser(on);
  const client = await createClient(owner.http);
  await giveCredit(on, client.id, credit);
  const set = await owner.http.put(`/api/clients/${client.id}`, {
    statusCallbackUrl: receiverUrl,
  });
  expect(set.status).toBe(200);
  const base = `/api/clients/${client.id}`;
  const send = (extra: Record<string, unknown>, headers = {}) =>
    owner.http.post(
      `${base}/messages/sms`,
      { sender: 'Shop', recipient: '+44 7700 900123', body: 'Later', ...extra },
      headers,
    );
  const schedule = async (sendAt: string) => {
    const sent = await send({ sendAt });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    return sent.body as { id: string; state: string; price: number };
  };
  const cancel = (id: string, as: HttpClient = owner.http) =>
    as.post(`${base}/messages/${id}/cancel`);
  const detail = async (id: string) =>
    (await owner.http.get(`${base}/messages/${id}`)).body;
  const wait = (id: string, done: (m: any) => boolean, timeout = 15_000) =>
    waitForMessage(owner.http, client.id, id, done, timeout);
  const balance = async () =>
    (await owner.http.get(`${base}/balances/default`)).body.amount as number;
  const ledger = async (kind: string) =>
    (await owner.http.get(`${base}/balances/default/ledger?kind=${kind}`)).body
      .entries as { amount: number; messageId: string }[];
  return {
    ...owner,
    client,
    send,
    schedule,
    cancel,
    detail,
    wait,
    balance,
    ledger,
  };
}

/** The states of a message's delivery jobs (pg-boss's table). */
async function jobStates(messageId: string): Promise<string[]> {
  const rows = await server.app.db.query<{ state: string }>(
    "SELECT state FROM pgboss.job WHERE name = $1 AND data->>'messageId' = $2",
    [DELIVERY_QUEUE, messageId],
  );
  return rows.map((r) => r.state);
}

/** A sample of GET /metrics (`name` with its labels, as printed), 0 when absent. */
async function scrape(sample: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line ? Number(line.split(' ').at(-1)) : 0;
}
const scrapeMessages = (state: string) =>
  scrape(`sms_messages_total{state="${state}"}`);

/**
 * The states a message's status callbacks announced, in the order the states were entered
 * (callbacks of one client may arrive in another order: several are in flight at once).
 */
const callbackStates = (messageId: string) =>
  callbacks
    .filter((c) => c.messageId === messageId)
    .sort((a, b) => Date.parse(a.dateUpdated) - Date.parse(b.dateUpdated))
    .map((c) => c.state);

describe('a send with sendAt', () => {
  it('is SCHEDULED and charged at once, then released at sendAt and delivered', async () => {
    const c = await customer();
    const scheduledBefore = await scrapeMessages('SCHEDULED');
    const acceptedBefore = await scrapeMessages('ACCEPTED');
    const sendAt = inMs(3_000);
    const sent = await c.schedule(sendAt);
    expect(sent).toMatchObject({ state: 'SCHEDULED', sendAt, batchId: null });
    expect(await c.balance()).toBeCloseTo(10 - sent.price, 4);
    expect(await c.ledger('SMS')).toHaveLength(1);
    expect(await scrapeMessages('SCHEDULED')).toBe(scheduledBefore + 1);

    // Held: nothing tried before sendAt (the first attempt's time, below, proves it for the
    // whole wait without sleeping through part of it).
    expect(await c.detail(sent.id)).toMatchObject({
      state: 'SCHEDULED',
      attempts: [],
    });

    const done = await c.wait(sent.id, (m) => m.state === 'DELIVERED');
    const tried = Date.parse(done.attempts[0].dateCreated);
    expect(tried).toBeGreaterThanOrEqual(Date.parse(sendAt));
    // The queue's start: released within a few seconds of sendAt.
    expect(tried).toBeLessThan(Date.parse(sendAt) + 3_000);
    expect(done.sendAt).toBe(sendAt);
    expect(await c.balance()).toBeCloseTo(10 - sent.price, 4);
    expect(await c.ledger('REFUND')).toEqual([]);
    expect(await scrapeMessages('ACCEPTED')).toBe(acceptedBefore + 1);
    // Status callbacks: SCHEDULED at accept, ACCEPTED at release, then as any send.
    await expect
      .poll(() => callbackStates(sent.id), { timeout: 10_000 })
      .toEqual(['SCHEDULED', 'ACCEPTED', 'SUBMITTED', 'DELIVERED']);
    await expectLedgerBalanced(server);
  }, 30_000);

  it('is refused (400, nothing charged) in the past, beyond 35 days, or not a date-time', async () => {
    const c = await customer();
    const cases: [unknown, string][] = [
      [inMs(-60_000), 'Send at must not be in the past'],
      [inMs(36 * 86_400_000), 'Send at must be at most 35 days ahead'],
      ['tomorrow at nine', 'Send at must be an ISO 8601 date-time'],
      ['2026-12-01T09:00:00', 'Send at must be an ISO 8601 date-time'],
      [1767258000000, 'Send at must be an ISO 8601 date-time'],
    ];
    for (const [sendAt, message] of cases) {
      const sent = await c.send({ sendAt });
      expect(sent.status, String(sendAt)).toBe(400);
      expect(sent.body.message).toContain(message);
    }
    expect(await c.balance()).toBe(10);
    const log = await c.http.get(`/api/clients/${c.client.id}/messages`);
    expect(log.body.total).toBe(0);
  });

  it('may be scheduled 35 days ahead; its job waits for sendAt, not in sms_queue_depth', async () => {
    const c = await customer();
    const sent = await c.schedule(inMs(35 * 86_400_000 - 60_000));
    expect(sent.state).toBe('SCHEDULED');
    expect(await jobStates(sent.id)).toEqual(['created']);
    await expect.poll(() => scrape('sms_queue_depth')).toBe(0);
  });

  it("counts against the client's messages a second when accepted (429 beyond it, nothing charged)", async () => {
    const c = await customer();
    const limits = await adminHttp(server.url).put(
      `/api/admin/clients/${c.client.id}/limits`,
      { maxMessagesPerSecond: 1 },
    );
    expect(limits.status).toBe(200);
    const sendAt = inMs(600_000);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => c.send({ sendAt })),
    );
    const accepted = answers.filter((a) => a.status === 201);
    expect(answers.some((a) => a.status === 429)).toBe(true);
    for (const a of answers) expect([201, 429]).toContain(a.status);
    expect(await c.balance()).toBeCloseTo(
      10 - accepted.reduce((sum, a) => sum + a.body.price, 0),
      4,
    );
  });

  it('keeps Idempotency-Key: the same request is replayed, another sendAt is refused (422)', async () => {
    const c = await customer();
    const sendAt = inMs(600_000);
    const key = { 'idempotency-key': `sched-${Date.now()}` };
    const first = await c.send({ sendAt }, key);
    expect(first.status).toBe(201);
    const again = await c.send({ sendAt }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await c.send({ sendAt: inMs(700_000) }, key);
    expect(other.status).toBe(422);
    expect(await c.balance()).toBeCloseTo(10 - first.body.price, 4);
    expect(await jobStates(first.body.id)).toEqual(['created']);
  });

  it('takes the same instant written with another UTC offset as the same request', async () => {
    const c = await customer();
    const at = new Date(Math.ceil((Date.now() + 600_000) / 1000) * 1000);
    const utc = at.toISOString().replace('.000Z', 'Z');
    const plusTwo = `${new Date(at.getTime() + 7_200_000).toISOString().slice(0, 19)}+02:00`;
    const key = { 'idempotency-key': `offset-${Date.now()}` };
    const first = await c.send({ sendAt: utc }, key);
    expect(first.status).toBe(201);
    const again = await c.send({ sendAt: plusTwo }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await c.balance()).toBeCloseTo(10 - first.body.price, 4);
  });
});

describe('POST …/messages/{messageId}/cancel', () => {
  it('makes a scheduled message CANCELED and refunds it once; its job then sends nothing', async () => {
    const c = await customer();
    const canceledBefore = await scrapeMessages('CANCELED');
    const sendAt = inMs(1_500);
    const sent = await c.schedule(sendAt);
    const canceled = await c.cancel(sent.id);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: sent.id, state: 'CANCELED' });
    expect(await c.balance()).toBe(10);
    expect(await c.ledger('REFUND')).toMatchObject([
      { amount: sent.price, messageId: sent.id },
    ]);
    expect(await scrapeMessages('CANCELED')).toBe(canceledBefore + 1);

    const again = await c.cancel(sent.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      'Only a scheduled message can be cancelled; this message is CANCELED',
    );
    // At sendAt its job runs, finds it CANCELED and completes: nothing sent, nothing refunded twice.
    await expect
      .poll(() => jobStates(sent.id), { timeout: 10_000 })
      .toEqual(['completed']);
    expect(await c.detail(sent.id)).toMatchObject({
      state: 'CANCELED',
      attempts: [],
    });
    expect(await c.ledger('REFUND')).toHaveLength(1);
    await expect
      .poll(() => callbackStates(sent.id), { timeout: 10_000 })
      .toEqual(['SCHEDULED', 'CANCELED']);
    await expectLedgerBalanced(server);
  });

  it('answers 409 for a message sent at once, 404 for an unknown one or another client', async () => {
    const c = await customer();
    const now = await c.send({});
    expect(now.status).toBe(201);
    const refused = await c.cancel(now.body.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(
      /^Only a scheduled message can be cancelled; this message is (ACCEPTED|SUBMITTED|DELIVERED)$/,
    );
    const unknown = await c.cancel('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);

    const scheduled = await c.schedule(inMs(600_000));
    const other = await customer();
    const foreign = await other.http.post(
      `/api/clients/${c.client.id}/messages/${scheduled.id}/cancel`,
    );
    expect(foreign.status).toBe(404);
    const wrongClient = await other.http.post(
      `/api/clients/${other.client.id}/messages/${scheduled.id}/cancel`,
    );
    expect(wrongClient.status).toBe(404);
    expect((await c.detail(scheduled.id)).state).toBe('SCHEDULED');
  });

  it("is the API client's own call too, and needs ROLE_SMS_CREATE", async () => {
    const c = await customer();
    const one = await c.schedule(inMs(600_000));
    const two = await c.schedule(inMs(600_000));
    const asClient = await c.cancel(one.id, clientHttp(server.url, c.client));
    expect(asClient.status).toBe(200);
    expect(asClient.body.state).toBe('CANCELED');
    await setRoles(server.url, c.id, []);
    // Once the roles are gone for this user (a send is refused too), so is the cancel.
    await expect.poll(async () => (await c.send({})).status).toBe(403);
    const refused = await c.cancel(two.id);
    expect(refused.status).toBe(403);
    expect((await c.detail(two.id)).state).toBe('SCHEDULED');
  });

  it('is read-only for staff: no cancel under /api/admin', async () => {
    const c = await customer();
    const sent = await c.schedule(inMs(600_000));
    const admin = adminHttp(server.url);
    const listed = await admin.get(
      `/api/admin/clients/${c.client.id}/messages/${sent.id}`,
    );
    expect(listed.body).toMatchObject({ state: 'SCHEDULED' });
    const cancel = await admin.post(
      `/api/admin/clients/${c.client.id}/messages/${sent.id}/cancel`,
    );
    expect(cancel.status).toBe(404);
    expect((await c.detail(sent.id)).state).toBe('SCHEDULED');
  });

  it('two cancels racing: one 200, one 409, one refund', async () => {
    const c = await customer();
    const sent = await Promise.all(
      Array.from({ length: 5 }, () => c.schedule(inMs(600_000))),
    );
    for (const message of sent) {
      const answers = await Promise.all([
        c.cancel(message.id),
        c.cancel(message.id),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    }
    const refunds = await c.ledger('REFUND');
    expect(refunds.map((r) => r.messageId).sort()).toEqual(
      sent.map((m) => m.id).sort(),
    );
    expect(await c.balance()).toBe(10);
    await expectLedgerBalanced(server);
  });

  it('racing the release: CANCELED and refunded, or delivered, never both; the ledger exact', async () => {
    const c = await customer();
    const rounds = Array.from({ length: 10 }, (_, i) => i);
    const outcomes = await Promise.all(
      rounds.map(async (i) => {
        const sent = await c.schedule(inMs(1_000));
        // Around the release: from before sendAt to after the worker's next poll (0.5 s) past it.
        // A fixed wait on purpose: the race is with the clock (sendAt), each round at its offset.
        await sleep(700 + i * 150);
        const answer = await c.cancel(sent.id);
        const done = await c.wait(sent.id, (m) =>
          ['DELIVERED', 'CANCELED'].includes(m.state),
        );
        return { sent, status: answer.status, done };
      }),
    );
    const refunds = await c.ledger('REFUND');
    let charged = 0;
    for (const { sent, status, done } of outcomes) {
      const refunded = refunds.filter((r) => r.messageId === sent.id);
      if (status === 200) {
        expect(done.state).toBe('CANCELED');
        expect(done.attempts).toEqual([]);
        expect(refunded).toHaveLength(1);
      } else {
        expect(status).toBe(409);
        expect(done.state).toBe('DELIVERED');
        expect(refunded).toHaveLength(0);
        charged += sent.price;
      }
    }
    console.log(
      `cancel vs release: ${outcomes.filter((o) => o.status === 200).length} cancelled, ` +
        `${outcomes.filter((o) => o.status !== 200).length} delivered`,
    );
    expect(await c.balance()).toBeCloseTo(10 - charged, 4);
    await expectLedgerBalanced(server);
  }, 30_000);
});

describe('a server killed with SIGKILL between accept and release', () => {
  const started: Restartables = { servers: [], databases: [] };
  afterAll(() => cleanUp(started));

  it('loses nothing: after a restart the message is released at sendAt and delivered', async () => {
    const { first, owner, client, restart, ownerOn } = await restartableServer(
      started,
      'scheduled',
      {},
      10,
    );
    const sendAt = inMs(6_000);
    const sent = await owner.http.post(
      `/api/clients/${client.id}/messages/sms`,
      { sender: 'Shop', recipient: '447700900123', body: 'Kill', sendAt },
    );
    expect(sent.status).toBe(201);
    expect(sent.body.state).toBe('SCHEDULED');
    first.child.kill('SIGKILL');
    await first.exited;

    const after = ownerOn(await restart());
    const done = await waitForMessage(
      after,
      client.id,
      sent.body.id,
      (m) => m.state === 'DELIVERED',
      30_000,
    );
    expect(Date.parse(done.attempts[0].dateCreated)).toBeGreaterThanOrEqual(
      Date.parse(sendAt),
    );
    const balance = await after.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.body.amount).toBeCloseTo(10 - sent.body.price, 4);
  }, 90_000);
});
