import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../../../src/server/db/client.ts';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { toMessage } from '../../../../src/server/features/messages/repo.ts';
import { MessageSchema } from '../../../../src/shared/schemas/messages.ts';
import { basic } from '../../../support/http.ts';
import {
  createClient,
  giveCredit,
  registerUser,
  setPrice,
  uniquePrefix,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * A Message's JSON is written by the database alone (message_json, migrations/functions/): a
 * send's 201 body (send_sms_batch's `answer`), a replayed key's, a cancel's, each sent on as it
 * is. It must be byte for byte what the API's MessageSchema serializer (zod, the schema that
 * declares the answer) writes for the stored row read as every other answer reads it (to_jsonb →
 * toMessage): the same fields in the same order, text escaped alike, dates cut to the
 * millisecond, amounts printed as JS numbers.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

type Row = Parameters<typeof toMessage>[0];

const zodJson = serializerCompiler({
  schema: MessageSchema,
  method: 'POST',
  url: '/api/clients/:clientId/messages/sms',
  httpStatus: '201',
});

/** What MessageSchema's serializer writes for message `id` as stored now. */
async function nodeAnswer(q: Queryable, id: string): Promise<string> {
  const [row] = await q.query<{ m: Row }>(
    'SELECT to_jsonb(m) AS m FROM messages m WHERE m.id = $1',
    [id],
  );
  return zodJson(toMessage(row!.m));
}

async function funded(credit = '100') {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  await giveCredit(server.url, client.id, credit);
  return { owner, client };
}

const AWKWARD =
  'Quotes " and \\ backslash, / slash,\nnew line\r, tab\t, \b\f \u0001 \u001f \u007f ' +
  '\u2028 \u2029 ünïcödé 😀 ﷺ';

describe('send_sms_batch answers the Message as the node writes it', () => {
  it('for every kind of text, amount and date, a repeated key included', async () => {
    const { owner, client } = await funded();
    const prefix = uniquePrefix();
    // 15 digits after the point is what a JS number carries; 0.00005 is where JS still
    // prints no exponent and PostgreSQL's float text would.
    await setPrice(server.url, prefix, {
      name: 'Tiny',
      pricePerSegment: '0.00005',
    });
    const item = (fields: Record<string, unknown>) => ({
      clientId: client.id,
      ownerId: owner.id,
      defaultPrice: '0.05',
      sender: 'Shop',
      recipient: '447700900123',
      body: 'Hello',
      reference: '',
      encoding: 'GSM-7',
      segments: 1,
      actorUserId: owner.id,
      key: null,
      hash: null,
      sendAt: null,
      ...fields,
    });
    const soon = new Date(Date.now() + 86_400_000);
    // A sendAt with microseconds and an offset: answered in UTC, cut to the millisecond.
    const sendAt = `${soon.toISOString().slice(0, 19)}.123999+02:00`;
    const group = [
      item({}),
      item({
        body: AWKWARD,
        reference: 'ref "x" \\ ✓',
        encoding: 'UCS-2',
        segments: 2,
      }),
      item({ recipient: `${prefix}123` }),
      item({ recipient: '79000000001', segments: 3 }),
      item({ sendAt, key: 'same', hash: 'h1' }),
      // The same key again in the same group: the earlier send's message, replayed.
      item({ sendAt, key: 'same', hash: 'h1' }),
      item({ sendAt, key: 'same', hash: 'other' }),
    ];
    await server.app.db
      .transaction(async (tx) => {
        // Rolled back at the end, so delivery never sees (and never moves) these messages.
        // Values no API call can write: a price per segment ≥ 1e9, and a balance to pay it.
        await tx.query(
          `INSERT INTO prices (prefix, name, price_per_segment)
           VALUES ('79', 'Huge', 1234567890.123456), ('7900', 'Long', 123456789.987654)`,
        );
        await tx.query(
          'UPDATE balances SET amount = 99999999999 WHERE client_id = $1',
          [client.id],
        );
        const rows = await tx.query<{
          idx: number;
          answer: string | null;
          replayed: boolean;
          conflict: boolean;
          refusal: string | null;
        }>(
          'SELECT idx, answer, replayed, conflict, refusal FROM send_sms_batch($1::jsonb) ORDER BY idx',
          [
            JSON.stringify([
              ...group,
              item({ recipient: '79123456789', segments: 1 }),
            ]),
          ],
        );
        expect(
          rows.map((r) => [r.idx, r.refusal, r.replayed, r.conflict]),
        ).toEqual([
          [1, null, false, false],
          [2, null, false, false],
          [3, null, false, false],
          [4, null, false, false],
          [5, null, false, false],
          [6, null, true, false],
          [7, null, true, true],
          [8, null, false, false],
        ]);
        for (const row of rows) {
          const id = (JSON.parse(row.answer!) as { id: string }).id;
          expect(row.answer, `send ${row.idx}`).toBe(await nodeAnswer(tx, id));
        }
        const amounts = rows.map(
          (r) => JSON.parse(r.answer!) as Record<string, unknown>,
        );
        expect(amounts[2]).toMatchObject({
          price: 0.0001,
          pricePerSegment: 0.00005,
        });
        expect(amounts[3]).toMatchObject({ pricePerSegment: 123456789.987654 });
        expect(amounts[7]).toMatchObject({
          pricePerSegment: 1234567890.123456,
        });
        expect(amounts[4]).toMatchObject({ state: 'SCHEDULED' });
        expect(rows[4]!.answer).toContain(
          `"sendAt":"${new Date(sendAt).toISOString()}"`,
        );
        expect(rows[5]!.answer).toBe(rows[4]!.answer);
        throw new Error('roll back');
      })
      .catch((error: Error) => {
        if (error.message !== 'roll back') throw error;
      });
  });
});

describe('POST /api/clients/{clientId}/messages/sms', () => {
  it("answers the database's text as it is, as JSON, and a replay in the same bytes", async () => {
    const { client } = await funded();
    // Scheduled: delivery leaves it as it is while the test reads it back.
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const send = () =>
      fetch(`${server.url}/api/clients/${client.id}/messages/sms`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: basic(client.id, client.secret),
          'idempotency-key': 'answer-1',
        },
        body: JSON.stringify({
          sender: 'Shop',
          recipient: '+44 7700 900123',
          body: AWKWARD,
          reference: 'r',
          sendAt,
        }),
      });
    const first = await send();
    const text = await first.text();
    expect(first.status).toBe(201);
    expect(first.headers.get('content-type')).toBe(
      'application/json; charset=utf-8',
    );
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const id = (JSON.parse(text) as { id: string }).id;
    expect(text).toBe(await nodeAnswer(server.app.db, id));

    // The key's answer stored by that group, written again by message_json from the stored row.
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(
      'application/json; charset=utf-8',
    );
    expect(await again.text()).toBe(text);

    // The cancel's answer: the message as it is now (CANCELED), by the same writer.
    const canceled = await fetch(
      `${server.url}/api/clients/${client.id}/messages/${id}/cancel`,
      {
        method: 'POST',
        headers: { authorization: basic(client.id, client.secret) },
      },
    );
    const canceledText = await canceled.text();
    expect(canceled.status).toBe(200);
    expect(canceled.headers.get('content-type')).toBe(
      'application/json; charset=utf-8',
    );
    expect(JSON.parse(canceledText)).toMatchObject({ id, state: 'CANCELED' });
    expect(canceledText).toBe(await nodeAnswer(server.app.db, id));
  });
});
