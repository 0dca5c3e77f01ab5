import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../../support/engine.ts';
import { eventually } from '../../../support/eventually.ts';
import { expectLedgerBalanced } from '../../../support/ledger.ts';
import {
  createClient,
  giveCredit,
  registerUser,
} from '../../../support/seed.ts';
import { startSmsc, type TestSmsc } from '../../../support/smsc.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * CONTRACT "Two-way messaging": an opt-out holds on every node at once because it is a row read
 * inside the send's statement. A STOP (the inbound write, on one connection) and sends to the
 * same number (single, scheduled, batch: on others) at the same moment, many times: each send is
 * either refused with nothing charged, or charged and then either handed to the SMSC or (caught
 * by the release's re-check, or by the STOP's cancel of SCHEDULED messages) CANCELED and
 * refunded once. Never charged and dropped, never sent after a refund; the ledger sums.
 * PostgreSQL: several connections at once, which PGlite (one connection) cannot race.
 */
let server: TestServer;
let smsc: TestSmsc;

beforeAll(async () => {
  if (!onPostgres) return;
  smsc = await startSmsc({ receipt: { stat: 'DELIVRD' } });
  server = await startServer({
    SMPP_HOST: '127.0.0.1',
    SMPP_PORT: String(smsc.port),
    SMPP_SYSTEM_ID: 'test',
    SMPP_PASSWORD: 'secret',
  });
});
afterAll(async () => {
  await server?.close();
  await smsc?.close();
});

const ROUNDS = 25;
const OPT_OUT_REPLY =
  'You have been unsubscribed and will receive no more messages. Reply START to subscribe again.';

describe.skipIf(!onPostgres)('a STOP racing sends to the same number', () => {
  it('refuses each send or charges it and lets it go out (or cancels and refunds it once), never charged and dropped', async () => {
    const owner = await registerUser(server.url);
    const client = await createClient(owner.http);
    await giveCredit(server.url, client.id, '100');
    const base = `/api/clients/${client.id}`;
    const ours = String(randomInt(10 ** 10, 10 ** 11));
    await server.app.db.query(
      'INSERT INTO numbers (number, client_id) VALUES ($1, $2)',
      [ours, client.id],
    );

    const sent: { body: string; status: number; ids: string[] }[] = [];
    const numbers: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const number = `4479${String(randomInt(10 ** 7, 10 ** 8))}`;
      const bystander = `4478${String(randomInt(10 ** 7, 10 ** 8))}`;
      numbers.push(number);
      const sendAt = new Date(Date.now() + 1500).toISOString();
      const [, single, scheduled, batch] = await Promise.all([
        server.app.db.query(
          `INSERT INTO inbound_messages (client_id, method, provider_message_id, from_number,
                                         to_number, body, encoding, segments, keyword)
           VALUES ($1, 'WORLD_SPECIAL', $2, $3, $4, 'STOP', 'GSM-7', 1, 'STOP')`,
          [client.id, randomUUID(), number, ours],
        ),
        owner.http.post(`${base}/messages/sms`, {
          sender: 'Shop',
          recipient: number,
          body: `single ${round}`,
        }),
        owner.http.post(`${base}/messages/sms`, {
          sender: 'Shop',
          recipient: number,
          body: `scheduled ${round}`,
          sendAt,
        }),
        owner.http.post(`${base}/batches`, {
          recipients: [bystander, number],
          body: `batch ${round}`,
          sender: 'Shop',
        }),
      ]);
      for (const [body, answer] of [
        [`single ${round}`, single],
        [`scheduled ${round}`, scheduled],
      ] as const) {
        expect([201, 403]).toContain(answer.status);
        sent.push({
          body,
          status: answer.status,
          ids: answer.status === 201 ? [answer.body.id] : [],
        });
      }
      expect([201, 403]).toContain(batch.status);
      sent.push({
        body: `batch ${round}`,
        status: batch.status,
        ids: [],
      });
      // Once the STOP is in, the next send is refused at once.
      const after = await owner.http.post(`${base}/messages/sms`, {
        sender: 'Shop',
        recipient: number,
        body: 'too late',
      });
      expect(after.status).toBe(403);
      expect(after.body.code).toBe('recipient_opted_out');
    }

    // Every message of the client settles: DELIVERED (went out) or CANCELED; nothing else.
    const all = await eventually(
      async () =>
        (await owner.http.get(`${base}/messages?count=300`)).body.messages as {
          id: string;
          body: string;
          recipient: string;
          state: string;
          sender: string;
        }[],
      (messages) =>
        messages.length > 0 &&
        messages.every((m) => ['DELIVERED', 'CANCELED'].includes(m.state)),
      { what: 'every message settled', timeout: 90_000, interval: 250 },
    );
    const refunds = new Set(
      (
        await owner.http.get(
          `${base}/balances/default/ledger?kind=REFUND&count=300`,
        )
      ).body.entries.map((e: { messageId: string }) => e.messageId),
    );
    const submitted = (to: string, text: string) =>
      smsc.submits.filter((s) => s.destinationAddr === to && s.text === text)
        .length;

    let charged = 0;
    for (const m of all) {
      if (m.body === OPT_OUT_REPLY) continue;
      if (m.state === 'DELIVERED') {
        // Charged and went out: the SMSC got it, once; no refund.
        expect({ m, submits: submitted(m.recipient, m.body) }).toEqual({
          m,
          submits: 1,
        });
        expect(refunds.has(m.id)).toBe(false);
        charged += 1;
      } else {
        // Cancelled: refunded once, never handed over.
        expect({ m, refunded: refunds.has(m.id) }).toEqual({
          m,
          refunded: true,
        });
        expect(submitted(m.recipient, m.body)).toBe(0);
      }
    }
    // A refused send left no message; a refused batch neither (all or nothing).
    for (const { body, status } of sent) {
      const written = all.filter((m) => m.body === body);
      if (status === 403) expect(written).toEqual([]);
      else if (body.startsWith('batch')) expect(written).toHaveLength(2);
      else expect(written).toHaveLength(1);
    }
    // Each STOP answered once, from our number, charged, and it went out.
    const replies = all.filter((m) => m.body === OPT_OUT_REPLY);
    expect(replies.map((m) => m.recipient).sort()).toEqual([...numbers].sort());
    for (const reply of replies) {
      expect(reply).toMatchObject({ sender: ours, state: 'DELIVERED' });
      expect(submitted(reply.recipient, OPT_OUT_REPLY)).toBe(1);
    }
    charged += replies.length;

    const balance = (await owner.http.get(`${base}/balances/default`)).body
      .amount as number;
    expect(balance).toBeCloseTo(100 - charged * 0.05, 4);
    await expectLedgerBalanced(server);
    // Report how the races fell, so a run that never raced is visible.
    const outcomes = sent.reduce<Record<string, number>>((acc, s) => {
      const key = `${s.body.split(' ')[0]} ${s.status}`;
      acc[key] = (acc[key] ?? 0) + 1;
      return acc;
    }, {});
    const canceled = all.filter((m) => m.state === 'CANCELED').length;
    console.info('opt-out race outcomes', { ...outcomes, canceled });
  }, 180_000);
});
