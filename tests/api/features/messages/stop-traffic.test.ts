// @also-on-pglite: the cancel locks pg-boss's job rows, which PGlite's adapter runs too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../support/eventually.ts';
import { expectLedgerBalanced } from '../../../support/ledger.ts';
import {
  adminHttp,
  createClient,
  giveCredit,
  registerUser,
  setPrice,
  uniquePrefix,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * CONTRACT "Destinations", "Stopping traffic" (issue 30, finding 3): up to the moment a provider
 * takes it, a queued message can be stopped: CANCELED and refunded once, never both sent and
 * refunded. Messages are held back by the client's maxMessagesPerSecond (a paced batch waits
 * ACCEPTED with jobs at later seconds) or by a sendAt.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function customer(credit = '10') {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  await giveCredit(server.url, client.id, credit);
  const base = `/api/clients/${client.id}`;
  const send = (recipients: string[], extra: object = {}) =>
    owner.http.post(`${base}/batches`, {
      recipients,
      body: 'Hello',
      ...extra,
    });
  const balance = async () =>
    (await owner.http.get(`${base}/balances/default`)).body.amount as number;
  const batch = async (id: string) =>
    (await owner.http.get(`${base}/batches/${id}`)).body;
  const settled = (id: string, timeout = 30_000) =>
    eventually(
      () => batch(id),
      (b) =>
        Object.keys(b.states).every(
          (state) => !['ACCEPTED', 'SUBMITTED', 'SCHEDULED'].includes(state),
        ),
      { what: `batch ${id} settled`, timeout, interval: 200 },
    );
  const refunds = async () =>
    (await owner.http.get(`${base}/balances/default/ledger?kind=REFUND`)).body
      .total as number;
  /**
   * The batch's messages as GET …/messages/{id} shows them: `error` by state, e.g.
   * {CANCELED: ['canceled by staff'], DELIVERED: [null]} (each distinct error once).
   */
  const errorsByState = async (batchId: string, admin = false) => {
    const path = admin
      ? `/api/admin/clients/${client.id}/messages`
      : `${base}/messages`;
    const http = admin ? adminHttp(server.url) : owner.http;
    const list = await http.get(`${path}?batchId=${batchId}&count=100`);
    expect(list.status).toBe(200);
    const seen: Record<string, (string | null)[]> = {};
    for (const { id } of list.body.messages as { id: string }[]) {
      const one = await http.get(`${path}/${id}`);
      expect(one.status).toBe(200);
      const errors = (seen[one.body.state] ??= []);
      if (!errors.includes(one.body.error)) errors.push(one.body.error);
    }
    return seen;
  };
  const pace = async (maxMessagesPerSecond: number) => {
    const answer = await adminHttp(server.url).put(
      `/api/admin/clients/${client.id}/limits`,
      { maxMessagesPerSecond },
    );
    expect(answer.status).toBe(200);
  };
  return {
    ...owner,
    client,
    base,
    send,
    balance,
    batch,
    settled,
    refunds,
    errorsByState,
    pace,
  };
}

function numbers(prefix: string, n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) => `${prefix}${String(i).padStart(3, '0')}`,
  );
}

/** sms_messages_total{state="CANCELED"} on /metrics (0 before the first). */
async function canceledCounted(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('sms_messages_total{state="CANCELED"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

const stopPath = (clientId: string) =>
  `/api/admin/clients/${clientId}/messages/cancel`;

describe('staff stop a client’s traffic (adminCancelClientMessages)', () => {
  it('cancels a paced batch’s waiting messages, each refunded once; the rest are delivered, never both', async () => {
    const c = await customer();
    await c.pace(1);
    const sent = await c.send(numbers(uniquePrefix(), 12));
    expect(sent.status).toBe(201);
    expect(await c.balance()).toBe(9.4);
    // Once the first is out the others wait ACCEPTED for their seconds.
    await eventually(
      () => c.batch(sent.body.id),
      (b) => (b.states.DELIVERED ?? 0) + (b.states.SUBMITTED ?? 0) >= 1,
      { what: 'first message out', timeout: 10_000, interval: 50 },
    );

    const stop = await adminHttp(server.url).post(stopPath(c.client.id), {});
    expect(stop.status).toBe(200);
    expect(stop.body.canceled).toBeGreaterThanOrEqual(8);

    const done = await c.settled(sent.body.id);
    expect(done.states.CANCELED).toBe(stop.body.canceled);
    expect((done.states.DELIVERED ?? 0) + done.states.CANCELED).toBe(12);
    // Refunded exactly the cancelled ones, once each: 0.05 a message.
    expect(await c.refunds()).toBe(stop.body.canceled);
    expect(await c.balance()).toBeCloseTo(9.4 + 0.05 * stop.body.canceled, 10);
    // Nothing more is sent afterwards, and a second stop finds nothing.
    const again = await adminHttp(server.url).post(stopPath(c.client.id));
    expect(again.body).toEqual({ canceled: 0 });
    await expectLedgerBalanced(server);
    // Each cancelled message names who stopped it, to its owner and to staff; the sent ones
    // have no error.
    const expected = {
      CANCELED: ['canceled by staff'],
      DELIVERED: [null],
    };
    expect(await c.errorsByState(sent.body.id)).toEqual(expected);
    expect(await c.errorsByState(sent.body.id, true)).toEqual(expected);

    const [audit] = await server.app.db.query<{ after: unknown }>(
      `SELECT after FROM audit_events
       WHERE action = 'client.messages_canceled' AND target_id = $1 AND target_type = 'client'
       ORDER BY id LIMIT 1`,
      [c.client.id],
    );
    expect(audit?.after).toEqual({
      canceled: stop.body.canceled,
      batchId: null,
    });
  });

  it('with batchId stops only that batch; scheduled messages too', async () => {
    const c = await customer();
    const later = inMs(60_000);
    const one = await c.send(numbers(uniquePrefix(), 3), { sendAt: later });
    const two = await c.send(numbers(uniquePrefix(), 4), { sendAt: later });
    expect(one.status).toBe(201);
    expect(two.status).toBe(201);
    expect(await c.balance()).toBe(9.65);

    const stop = await adminHttp(server.url).post(stopPath(c.client.id), {
      batchId: two.body.id,
    });
    expect(stop.body).toEqual({ canceled: 4 });
    expect((await c.batch(two.body.id)).states).toEqual({ CANCELED: 4 });
    expect((await c.batch(one.body.id)).states).toEqual({ SCHEDULED: 3 });
    expect(await c.balance()).toBe(9.85);
    expect(await c.refunds()).toBe(4);
    await expectLedgerBalanced(server);
    expect(await c.errorsByState(two.body.id)).toEqual({
      CANCELED: ['canceled by staff'],
    });
    expect(await c.errorsByState(one.body.id)).toEqual({ SCHEDULED: [null] });
  });

  it('answers 404 for an unknown client or another client’s batch, 403 without ROLE_CLIENT_ADMIN, 400 for a bad body', async () => {
    const c = await customer();
    const other = await customer();
    const theirs = await other.send(numbers(uniquePrefix(), 2), {
      sendAt: inMs(60_000),
    });
    const admin = adminHttp(server.url);
    const missing = await admin.post(
      stopPath('00000000-0000-4000-8000-000000000000'),
      {},
    );
    expect(missing.status).toBe(404);
    const foreign = await admin.post(stopPath(c.client.id), {
      batchId: theirs.body.id,
    });
    expect(foreign.status).toBe(404);
    expect((await other.batch(theirs.body.id)).states).toEqual({
      SCHEDULED: 2,
    });
    const bad = await admin.post(stopPath(c.client.id), { batchId: 'x' });
    expect(bad.status).toBe(400);
    const customerCall = await c.http.post(stopPath(c.client.id), {});
    expect(customerCall.status).toBe(403);
  });
});

describe('a staff stop racing the delivery workers', () => {
  it('leaves each message either sent or cancelled and refunded once, never both, never neither', async () => {
    const c = await customer('100');
    const sent = await c.send(numbers(uniquePrefix(), 400));
    expect(sent.status).toBe(201);
    // At once, while the workers are taking the batch's jobs.
    const stop = await adminHttp(server.url).post(stopPath(c.client.id), {});
    expect(stop.status).toBe(200);
    const done = await c.settled(sent.body.id);
    const canceled = done.states.CANCELED ?? 0;
    expect(canceled).toBe(stop.body.canceled);
    expect((done.states.DELIVERED ?? 0) + canceled).toBe(400);
    // Per message: cancelled ⇔ refunded exactly once, and a cancelled one was never submitted.
    const wrong = await server.app.db.query(
      `SELECT m.id, m.state,
              (SELECT count(*)::int FROM balance_ledger l
               WHERE l.message_id = m.id AND l.reason = 'REFUND') AS refunds,
              (SELECT count(*)::int FROM message_attempts a WHERE a.message_id = m.id) AS attempts
       FROM messages m WHERE m.batch_id = $1`,
      [sent.body.id],
    );
    const bad = wrong.filter((m: any) =>
      m.state === 'CANCELED'
        ? m.refunds !== 1 || m.attempts !== 0
        : m.state !== 'DELIVERED' || m.refunds !== 0,
    );
    expect(bad).toEqual([]);
    expect(await c.balance()).toBeCloseTo(80 + 0.05 * canceled, 10);
    await expectLedgerBalanced(server);
  });
});

describe('the owner’s batch cancel (cancelBatch)', () => {
  it('also cancels the batch’s ACCEPTED messages still waiting, each refunded once', async () => {
    const c = await customer();
    await c.pace(1);
    const sent = await c.send(numbers(uniquePrefix(), 10));
    expect(sent.status).toBe(201);
    await eventually(
      () => c.batch(sent.body.id),
      (b) => (b.states.DELIVERED ?? 0) + (b.states.SUBMITTED ?? 0) >= 1,
      { what: 'first message out', timeout: 10_000, interval: 50 },
    );
    const cancel = await c.http.post(
      `${c.base}/batches/${sent.body.id}/cancel`,
    );
    expect(cancel.status).toBe(200);
    const canceled = cancel.body.states.CANCELED as number;
    expect(canceled).toBeGreaterThanOrEqual(6);

    const done = await c.settled(sent.body.id);
    expect(done.states.CANCELED).toBe(canceled);
    expect((done.states.DELIVERED ?? 0) + canceled).toBe(10);
    expect(await c.refunds()).toBe(canceled);
    expect(await c.balance()).toBeCloseTo(9.5 + 0.05 * canceled, 10);
    await expectLedgerBalanced(server);
    expect(await c.errorsByState(sent.body.id)).toEqual({
      CANCELED: ['canceled by the owner'],
      DELIVERED: [null],
    });
  });

  it('a scheduled single send’s cancel names the owner too', async () => {
    const c = await customer();
    const sent = await c.http.post(`${c.base}/messages/sms`, {
      sender: 'Shop',
      recipient: '447700900003',
      body: 'Hello',
      sendAt: inMs(60_000),
    });
    expect(sent.status).toBe(201);
    const cancel = await c.http.post(
      `${c.base}/messages/${sent.body.id}/cancel`,
    );
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({
      state: 'CANCELED',
      error: 'canceled by the owner',
    });
    const shown = await c.http.get(`${c.base}/messages/${sent.body.id}`);
    expect(shown.body).toMatchObject({
      state: 'CANCELED',
      error: 'canceled by the owner',
    });
    expect(await c.refunds()).toBe(1);
    expect(await c.balance()).toBe(10);
    await expectLedgerBalanced(server);
  });
});

describe('deleting a client', () => {
  it('cancels and refunds its messages not yet taken by a provider; none is sent afterwards', async () => {
    const c = await customer();
    await c.pace(1);
    const sent = await c.send(numbers(uniquePrefix(), 10));
    expect(sent.status).toBe(201);
    const scheduled = await c.send(numbers(uniquePrefix(), 2), {
      sendAt: inMs(2000),
    });
    expect(scheduled.status).toBe(201);
    await eventually(
      () => c.batch(sent.body.id),
      (b) => (b.states.DELIVERED ?? 0) + (b.states.SUBMITTED ?? 0) >= 1,
      { what: 'first message out', timeout: 10_000, interval: 50 },
    );
    const deleted = await c.http.delete(`/api/clients/${c.client.id}`);
    expect(deleted.status).toBe(204);

    const states = () =>
      server.app.db.query<{ state: string; n: number }>(
        `SELECT state, count(*)::int AS n FROM messages WHERE client_id = $1
         GROUP BY 1 ORDER BY 1`,
        [c.client.id],
      );
    // Past the scheduled batch's sendAt and a few paced seconds: nothing more went out.
    const settled = await eventually(
      states,
      (rows) =>
        rows.every(
          (r) => !['ACCEPTED', 'SUBMITTED', 'SCHEDULED'].includes(r.state),
        ),
      { what: 'messages settled', timeout: 20_000, interval: 200 },
    );
    // Every job of its messages has run (the paced ones' later seconds, the scheduled ones'
    // sendAt): none sent anything more.
    await eventually(
      async () =>
        (
          await server.app.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pgboss.job
             WHERE name = 'sms-delivery' AND state IN ('created', 'retry', 'active')
               AND data->>'messageId' IN (SELECT id::text FROM messages WHERE client_id = $1)`,
            [c.client.id],
          )
        )[0]!.n,
      (n) => n === 0,
      { what: 'jobs of its messages run', timeout: 20_000, interval: 200 },
    );
    expect(await states()).toEqual(settled);
    const byState = Object.fromEntries(settled.map((r) => [r.state, r.n]));
    const canceled = byState.CANCELED ?? 0;
    expect(canceled).toBeGreaterThanOrEqual(8);
    expect((byState.DELIVERED ?? 0) + canceled).toBe(12);
    const [refunds] = await server.app.db.query<{ n: number; sum: string }>(
      `SELECT count(*)::int AS n, sum(amount)::text AS sum FROM balance_ledger
       WHERE client_id = $1 AND reason = 'REFUND'`,
      [c.client.id],
    );
    expect(refunds!.n).toBe(canceled);
    expect(Number(refunds!.sum)).toBeCloseTo(0.05 * canceled, 10);
    await expectLedgerBalanced(server);
    // The rows stay for staff and the ledger, each cancelled one naming the deletion.
    expect(
      await server.app.db.query(
        `SELECT state, error, count(*)::int AS n FROM messages WHERE client_id = $1
         GROUP BY 1, 2 ORDER BY 1`,
        [c.client.id],
      ),
    ).toEqual([
      {
        state: 'CANCELED',
        error: 'canceled: the client was deleted',
        n: canceled,
      },
      ...(byState.DELIVERED
        ? [{ state: 'DELIVERED', error: null, n: byState.DELIVERED }]
        : []),
    ]);
  });
});

describe('the re-check up to the moment a provider takes a message', () => {
  it('cancels and refunds a paced batch’s waiting messages once their destination is blocked', async () => {
    const c = await customer();
    await c.pace(1);
    const prefix = uniquePrefix();
    const sent = await c.send(numbers(prefix, 10));
    expect(sent.status).toBe(201);
    await eventually(
      () => c.batch(sent.body.id),
      (b) => (b.states.DELIVERED ?? 0) + (b.states.SUBMITTED ?? 0) >= 1,
      { what: 'first message out', timeout: 10_000, interval: 50 },
    );
    await setPrice(server.url, prefix, {
      name: 'Stopped land',
      pricePerSegment: '0.05',
      blocked: true,
    });
    const done = await c.settled(sent.body.id);
    const canceled = done.states.CANCELED as number;
    expect(canceled).toBeGreaterThanOrEqual(6);
    expect((done.states.DELIVERED ?? 0) + canceled).toBe(10);
    expect(await c.refunds()).toBe(canceled);
    expect(await c.balance()).toBeCloseTo(9.5 + 0.05 * canceled, 10);
    await expectLedgerBalanced(server);
    expect(await c.errorsByState(sent.body.id)).toEqual({
      CANCELED: ['canceled: the destination is blocked'],
      DELIVERED: [null],
    });
  });

  it('cancels scheduled sends released outside the client’s allowedPrefixes', async () => {
    const c = await customer();
    const countedBefore = await canceledCounted();
    const sendAt = inMs(1500);
    const ids: string[] = [];
    for (const recipient of ['447700900001', '447700900002']) {
      const sent = await c.http.post(`${c.base}/messages/sms`, {
        sender: 'Shop',
        recipient,
        body: 'Hello',
        sendAt,
      });
      expect(sent.status).toBe(201);
      ids.push(sent.body.id);
    }
    const limits = await adminHttp(server.url).put(
      `/api/admin/clients/${c.client.id}/limits`,
      { allowedPrefixes: ['353'] },
    );
    expect(limits.status).toBe(200);
    for (const id of ids) {
      const message = await eventually(
        async () => (await c.http.get(`${c.base}/messages/${id}`)).body,
        (m) => m.state !== 'SCHEDULED',
        { what: `message ${id} released`, timeout: 10_000, interval: 100 },
      );
      expect(message.state).toBe('CANCELED');
      expect(message.error).toBe(
        "canceled: the destination is outside the client's allowed prefixes",
      );
    }
    expect(await c.refunds()).toBe(2);
    expect(await c.balance()).toBe(10);
    expect(await canceledCounted()).toBe(countedBefore + 2);
    await expectLedgerBalanced(server);
  });
});
