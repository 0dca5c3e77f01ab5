// @also-on-pglite: delivery jobs go through pg-boss's PGlite adapter (one connection, its own exec path).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { smscBind } from '../../support/fleet.ts';
import {
  adminHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../support/seed.ts';
import { queueDrained, waitForMessage } from '../../support/delivery.ts';
import { reassemble, startSmsc, type TestSmsc } from '../../support/smsc.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * Delivery over a real SMPP bind to the test SMSC: states, receipts, failover and refunds, seen
 * through the message log calls.
 */
let smsc: TestSmsc;
let server: TestServer;

beforeAll(async () => {
  smsc = await startSmsc({ receipt: { stat: 'DELIVRD' } });
  server = await startServer({
    ...smscBind(smsc),
  });
});
afterAll(async () => {
  await server?.close();
  await smsc?.close();
});
beforeEach(() => {
  smsc.options.receipt = { stat: 'DELIVRD' };
});

/** A customer with a funded client and optional route splits (method → weight). */
async function customer(splits: Record<string, number> = {}, credit = 10) {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  await giveCredit(server.url, client.id, credit);
  for (const [deliveryMethod, weight] of Object.entries(splits)) {
    const created = await adminHttp(server.url).post(
      '/api/admin/routes/split',
      {
        userId: client.userId,
        clientId: client.id,
        deliveryMethod,
        weight,
      },
    );
    expect(created.status).toBe(201);
  }
  const send = async (body: string, sender = 'Shop') => {
    const sent = await owner.http.post(
      `/api/clients/${client.id}/messages/sms`,
      {
        sender,
        recipient: '+44 7700 900123',
        body,
      },
    );
    expect(sent.status).toBe(201);
    return sent.body as { id: string; state: string };
  };
  const wait = (id: string, done?: (m: any) => boolean) =>
    waitForMessage(owner.http, client.id, id, done);
  const balance = async () =>
    (await owner.http.get(`/api/clients/${client.id}/balances/default`)).body
      .amount as number;
  return { ...owner, client, send, wait, balance };
}

const submitsFor = (from: number) => smsc.submits.slice(from);

describe('delivery through SMPP', () => {
  it('takes a GSM-7 message ACCEPTED → SUBMITTED → DELIVERED with its attempt', async () => {
    const c = await customer();
    const before = smsc.submits.length;
    const sent = await c.send('Hello {world} €5');
    expect(sent.state).toBe('ACCEPTED');
    const done = await c.wait(sent.id);
    expect(done).toMatchObject({
      state: 'DELIVERED',
      deliveryMethod: 'MELROSE_SMPP',
      simulated: false,
    });
    expect(done.attempts).toEqual([
      {
        method: 'MELROSE_SMPP',
        state: 'DELIVERED',
        providerMessageId: expect.stringMatching(/^S/),
        error: null,
        errorCode: null,
        providerErrorCode: null,
        dateCreated: expect.any(String),
      },
    ]);
    const [submit] = submitsFor(before);
    expect(submit).toMatchObject({
      dataCoding: 0,
      text: 'Hello {world} €5',
      sourceAddr: 'Shop',
      sourceTon: 5,
      destinationAddr: '447700900123',
      destTon: 1,
      registeredDelivery: 1,
      messageId: done.attempts[0].providerMessageId,
    });
  });

  it('sends UCS-2 with an emoji as data_coding 8, and a 3-part message with one UDH reference', async () => {
    const c = await customer();
    const before = smsc.submits.length;
    const emoji = await c.send('Grüße 😀 aus Köln', '4477009009');
    const long = 'Part of a long message. '.repeat(17).trim(); // 407 septets: 3 parts
    const three = await c.send(long);
    expect((await c.wait(emoji.id)).state).toBe('DELIVERED');
    const longDone = await c.wait(three.id);
    expect(longDone.state).toBe('DELIVERED');
    expect(longDone.segments).toBe(3);
    expect(longDone.attempts[0].providerMessageId.split(',')).toHaveLength(3);

    const submits = submitsFor(before);
    const ucs2 = submits.find((s) => s.dataCoding === 8)!;
    expect(ucs2).toMatchObject({
      text: 'Grüße 😀 aus Köln',
      sourceAddr: '4477009009',
      sourceTon: 1,
    });
    const parts = submits.filter((s) => s.udh);
    expect(parts).toHaveLength(3);
    expect(new Set(parts.map((p) => p.udh!.reference)).size).toBe(1);
    expect(parts.map((p) => p.udh!.number).sort()).toEqual([1, 2, 3]);
    expect(reassemble(parts)).toEqual([long]);
  });

  it('ends UNDELIVERED or EXPIRED as the receipt says, with its error', async () => {
    const c = await customer();
    smsc.script({ receipt: { stat: 'UNDELIV', err: '034' } });
    const undelivered = await c.send('to a phone that is off');
    const u = await c.wait(undelivered.id);
    expect(u.state).toBe('UNDELIVERED');
    expect(u.attempts[0]).toMatchObject({
      state: 'UNDELIVERED',
      error: expect.stringContaining('034'),
    });
    smsc.script({ receipt: { stat: 'EXPIRED', format: 'tlv' } });
    const expired = await c.send('too late');
    expect((await c.wait(expired.id)).state).toBe('EXPIRED');
  });

  it('keeps the first receipt: a duplicate, a late contrary one or an unknown id change nothing', async () => {
    const c = await customer();
    smsc.script({ receipt: { stat: 'DELIVRD', duplicate: true } });
    const sent = await c.send('receipt twice');
    const done = await c.wait(sent.id);
    expect(done.state).toBe('DELIVERED');
    const providerId = done.attempts[0].providerMessageId;
    smsc.sendReceipt(providerId, { stat: 'UNDELIV', err: '001' });
    smsc.sendReceipt('no-such-id', { stat: 'DELIVRD' });
    await expect
      .poll(
        () =>
          smsc.receiptAnswers.filter((r) => r.messageId === providerId)
            .length >= 3 &&
          smsc.receiptAnswers.some((r) => r.messageId === 'no-such-id'),
        { timeout: 5_000, interval: 5, message: 'receipts answered' },
      )
      .toBe(true);
    // Every receipt was acknowledged (status 0): the SMSC stops sending them.
    expect(
      smsc.receiptAnswers
        .filter((r) => [providerId, 'no-such-id'].includes(r.messageId))
        .map((r) => r.status),
    ).toEqual([0, 0, 0, 0]);
    const after = await c.wait(sent.id);
    expect(after.state).toBe('DELIVERED');
    expect(after.attempts[0].state).toBe('DELIVERED');
    // The bind still works.
    const next = await c.send('still bound');
    expect((await c.wait(next.id)).state).toBe('DELIVERED');
  });

  it('applies a receipt that overtakes the submit answer', async () => {
    const c = await customer();
    smsc.script({ receipt: { stat: 'DELIVRD', beforeResp: true } });
    const sent = await c.send('receipt first');
    expect((await c.wait(sent.id)).state).toBe('DELIVERED');
  });

  it('retries a transient error on the same method', async () => {
    const c = await customer();
    smsc.script({ status: 0x08 }); // ESME_RSYSERR
    const sent = await c.send('second time lucky');
    const done = await c.wait(sent.id, undefined);
    expect(done.state).toBe('DELIVERED');
    expect(done.attempts.map((a: any) => [a.method, a.state])).toEqual([
      ['MELROSE_SMPP', 'FAILED'],
      ['MELROSE_SMPP', 'DELIVERED'],
    ]);
  });

  it('fails over after a permanent refusal to the next split method (simulated) and delivers', async () => {
    const c = await customer({
      MELROSE_SMPP: 1000,
      VONAGE_SMS: 1,
      WORLD_SPECIAL: 0,
    });
    // 1 in 1001 messages draws VONAGE_SMS first; try again then.
    for (let tries = 0; tries < 3; tries++) {
      smsc.script({ status: 0x45 }); // ESME_RSUBMITFAIL: permanent
      const sent = await c.send('fail me over');
      const done = await c.wait(sent.id);
      if (done.attempts[0].method !== 'MELROSE_SMPP') continue;
      expect(done).toMatchObject({
        state: 'DELIVERED',
        deliveryMethod: 'VONAGE_SMS',
        simulated: true,
      });
      expect(done.attempts.map((a: any) => [a.method, a.state])).toEqual([
        ['MELROSE_SMPP', 'REFUSED'],
        ['VONAGE_SMS', 'DELIVERED'],
      ]);
      expect(done.attempts[0].error).toMatch(/0x45/);
      return;
    }
    throw new Error('never routed to MELROSE_SMPP first');
  });
});

describe('a message no method takes', () => {
  it('ends FAILED and is refunded exactly once, even when failures race', async () => {
    const c = await customer({}, 1); // no split: DEFAULT_DELIVERY_METHOD (MELROSE_SMPP) only
    const n = 5;
    smsc.script(...Array.from({ length: 3 * n }, () => ({ status: 0x0b }))); // ESME_RINVDSTADR
    const sent = [];
    for (let i = 0; i < n; i++) sent.push(await c.send(`refused ${i}`));
    const ids = sent.map((m) => m.id);
    // Duplicate jobs and direct failures race the worker's own.
    await Promise.all([
      server.app.delivery.enqueue(ids),
      ...ids.map((id) => server.app.delivery.failMessages([id])),
      server.app.delivery.failMessages(ids),
      server.app.delivery.failMessages([...ids, ...ids]),
    ]);
    for (const id of ids) expect((await c.wait(id)).state).toBe('FAILED');
    // Let the duplicate jobs run out.
    await queueDrained(server.app.db);
    expect(await c.balance()).toBe(1);
    const refunds = await server.app.db.query<{
      message_id: string;
      n: number;
    }>(
      `SELECT message_id, count(*)::int AS n FROM balance_ledger
       WHERE client_id = $1 AND reason = 'REFUND' GROUP BY message_id`,
      [c.client.id],
    );
    expect(refunds.map((r) => r.n)).toEqual(ids.map(() => 1));
    const [ledger] = await server.app.db.query<{ sum: string; amount: string }>(
      `SELECT (SELECT sum(amount) FROM balance_ledger WHERE client_id = $1)::text AS sum,
              (SELECT amount FROM balances WHERE client_id = $1)::text AS amount`,
      [c.client.id],
    );
    expect(Number(ledger!.sum)).toBe(Number(ledger!.amount));
  });

  it('a FAILED message refused on every split method lists each attempt', async () => {
    const c = await customer({ MELROSE_SMPP: 10 });
    smsc.script({ status: 0x45 });
    const sent = await c.send('nobody takes me');
    const done = await c.wait(sent.id);
    expect(done.state).toBe('FAILED');
    expect(done.deliveryMethod).toBe('MELROSE_SMPP');
    expect(done.attempts.map((a: any) => a.state)).toEqual(['REFUSED']);
    expect(await c.balance()).toBe(10);
  });
});
