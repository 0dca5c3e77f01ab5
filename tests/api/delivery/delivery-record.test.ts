import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../../src/server/db/client.ts';
import * as repo from '../../../src/server/delivery/repo.ts';
import { createClient, registerUser } from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * record_delivery given a submit's answer and its receipt in one batch (an SMSC that answers at
 * once): the message is written once, ACCEPTED → DELIVERED (migrations/029), and every row and
 * status-callback event ends as when the receipt comes in a later batch. Each case runs in a
 * transaction that is rolled back, so the workers never see its messages; within it, every
 * write has the same now(), so the two ways can be compared value for value.
 */
let server: TestServer;
let clientId: string;

beforeAll(async () => {
  server = await startServer();
  const owner = await registerUser(server.url);
  clientId = (await createClient(owner.http)).id;
  // Every state change of this client's messages queues a status-callback job.
  await server.app.db.query(
    "UPDATE clients SET status_callback_url = 'https://receiver.example.test/cb' WHERE id = $1",
    [clientId],
  );
});
afterAll(async () => {
  await server?.close();
});

const METHOD = 'MELROSE_SMPP' as const;
let nextId = 0;

async function acceptedMessage(tx: Queryable): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `INSERT INTO messages (client_id, user_id, sender, recipient, body, state, encoding,
                           segments, price, currency)
     SELECT c.id, c.user_id, 'Shop', '447700900123', 'hello', 'ACCEPTED', 'GSM7', 1, 0.05, 'EUR'
     FROM clients c WHERE c.id = $1 RETURNING id`,
    [clientId],
  );
  return row!.id;
}

function submitted(messageId: string, parts: string[]): repo.Outcome {
  return {
    messageId,
    method: METHOD,
    route: [METHOD],
    state: 'SUBMITTED',
    providerMessageIds: parts,
    simulated: false,
  };
}

function receipt(
  part: string,
  state: repo.ReceiptRow['state'] = 'DELIVERED',
  error: string | null = null,
): repo.ReceiptRow {
  return { method: METHOD, providerMessageId: part, state, error };
}

const partIds = (n: number) =>
  Array.from({ length: n }, () => `record-${process.pid}-${nextId++}`);

interface Snapshot {
  state: string;
  attempts: { state: string; error: string | null; parts: number }[];
  parts: { state: string | null }[];
  events: { state: string; error: string | null }[];
}

/** What a message's rows and queued events say, without its own ids. */
async function snapshot(tx: Queryable, id: string): Promise<Snapshot> {
  const [row] = await tx.query<Snapshot>(
    `SELECT m.state, m.delivery_method, m.simulated, m.route, m.date_updated = now() AS updated_now,
       (SELECT jsonb_agg(jsonb_build_object('method', a.method, 'state', a.state, 'error', a.error,
                 'parts', a.parts, 'simulated', a.simulated,
                 'created_now', a.date_created = now(), 'updated_now', a.date_updated = now())
               ORDER BY a.id)
        FROM message_attempts a WHERE a.message_id = m.id) AS attempts,
       (SELECT jsonb_agg(jsonb_build_object('state', p.state, 'error', p.error,
                 'receipt_now', p.date_receipt = now(), 'authenticated', p.receipt_authenticated,
                 'client_ref', p.receipt_client_ref = m.id, 'claimed', p.attempt_id IS NOT NULL)
               ORDER BY p.provider_message_id)
        FROM message_parts p WHERE p.message_id = m.id) AS parts,
       (SELECT jsonb_agg(j.data - 'messageId' ORDER BY j.data->>'state')
        FROM pgboss.job j
        WHERE j.name = 'status-callback' AND j.data->>'messageId' = m.id::text) AS events
     FROM messages m WHERE m.id = $1`,
    [id],
  );
  return row!;
}

/** Updates of the table's rows so far in this transaction. */
async function updates(tx: Queryable, table: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    'SELECT pg_stat_get_xact_tuples_updated($1::regclass)::int AS n',
    [table],
  );
  return row!.n;
}

class Rollback extends Error {}

/** Runs `fn` in a transaction that is rolled back, and returns what it returned. */
async function rolledBack<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await server.app.db
    .transaction(async (tx) => {
      result = await fn(tx);
      throw new Rollback();
    })
    .catch((err: unknown) => {
      if (!(err instanceof Rollback)) throw err;
    });
  return result!;
}

/**
 * Records a message's submit and `receipts` (by part index) both ways: in later batches, and
 * with the submit in one batch; returns both snapshots.
 */
async function bothWays(
  parts: number,
  receipts: (
    part: string,
    index: number,
    messageId: string,
  ) => repo.ReceiptRow | null,
) {
  return rolledBack(async (tx) => {
    const split = await acceptedMessage(tx);
    const together = await acceptedMessage(tx);
    const splitParts = partIds(parts);
    const togetherParts = partIds(parts);
    const of = (ids: string[], messageId: string) =>
      ids.flatMap((p, i) => {
        const r = receipts(p, i, messageId);
        return r ? [r] : [];
      });
    await repo.recordDelivery(tx, [submitted(split, splitParts)], []);
    await repo.recordDelivery(tx, [], of(splitParts, split));
    const before = await updates(tx, 'messages');
    await repo.recordDelivery(
      tx,
      [submitted(together, togetherParts)],
      of(togetherParts, together),
    );
    const messageUpdates = (await updates(tx, 'messages')) - before;
    return {
      split: await snapshot(tx, split),
      together: await snapshot(tx, together),
      messageUpdates,
    };
  });
}

describe('a submit and its receipt in one batch', () => {
  it('writes the message once, ACCEPTED → DELIVERED, with the rows and both events of two batches', async () => {
    const { split, together, messageUpdates } = await bothWays(1, (p) =>
      receipt(p),
    );
    expect(together).toEqual(split);
    expect(together.state).toBe('DELIVERED');
    expect(together.attempts).toEqual([
      expect.objectContaining({ state: 'DELIVERED', error: null, parts: 1 }),
    ]);
    expect(together.events.map((e) => e.state)).toEqual([
      'ACCEPTED',
      'DELIVERED',
      'SUBMITTED',
    ]);
    expect(messageUpdates).toBe(1);
  });

  it('ends UNDELIVERED with the receipt error on the attempt and in the event', async () => {
    const { split, together, messageUpdates } = await bothWays(1, (p) =>
      receipt(p, 'UNDELIVERED', 'stat UNDELIV, err 001'),
    );
    expect(together).toEqual(split);
    expect(together.state).toBe('UNDELIVERED');
    expect(together.attempts[0]!.error).toBe('stat UNDELIV, err 001');
    expect(
      together.events.find((e) => e.state === 'UNDELIVERED'),
    ).toMatchObject({ error: 'stat UNDELIV, err 001' });
    expect(messageUpdates).toBe(1);
  });

  it('settles a message of several parts only once every part has its receipt', async () => {
    const all = await bothWays(3, (p, i) =>
      receipt(p, i === 1 ? 'REJECTED' : 'DELIVERED', i === 1 ? 'no' : null),
    );
    expect(all.together).toEqual(all.split);
    expect(all.together.state).toBe('REJECTED');
    const some = await bothWays(3, (p, i) => (i === 2 ? null : receipt(p)));
    expect(some.together).toEqual(some.split);
    expect(some.together.state).toBe('SUBMITTED');
  });

  it('applies an unsigned receipt only for the message it names, as in two batches', async () => {
    const own = await bothWays(1, (p, _, messageId) => ({
      ...receipt(p),
      unauthenticated: { clientRef: messageId },
    }));
    expect(own.together).toEqual(own.split);
    expect(own.together.state).toBe('DELIVERED');
    const foreign = await bothWays(1, (p) => ({
      ...receipt(p),
      unauthenticated: { clientRef: '00000000-0000-4000-8000-000000000000' },
    }));
    expect(foreign.together).toEqual(foreign.split);
    expect(foreign.together.state).toBe('SUBMITTED');
  });

  it('settles at once with a receipt that waited for the submit, as in two batches', async () => {
    const result = await rolledBack(async (tx) => {
      const early = await acceptedMessage(tx);
      const late = await acceptedMessage(tx);
      const [earlyPart] = partIds(1);
      const [latePart] = partIds(1);
      await repo.recordDelivery(tx, [], [receipt(earlyPart!)]);
      const before = await updates(tx, 'messages');
      await repo.recordDelivery(tx, [submitted(early, [earlyPart!])], []);
      const messageUpdates = (await updates(tx, 'messages')) - before;
      await repo.recordDelivery(tx, [submitted(late, [latePart!])], []);
      await repo.recordDelivery(tx, [], [receipt(latePart!)]);
      return {
        early: await snapshot(tx, early),
        late: await snapshot(tx, late),
        messageUpdates,
      };
    });
    expect(result.early).toEqual(result.late);
    expect(result.early.state).toBe('DELIVERED');
    expect(result.messageUpdates).toBe(1);
  });
});
