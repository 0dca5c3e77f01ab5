import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../../shared/schemas/messages.ts';
import { loadConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { openDatabase } from '../../db/open.ts';
import { startQueue } from '../../delivery/queue.ts';
import { insertClient, insertDefaultBalance } from '../clients/repo.ts';
import { insertAcceptedMessage } from '../messages/repo.ts';
import { insertUser } from '../users/repo.ts';
import { creditBalance } from './repo.ts';

interface LedgerRow {
  amount: string;
  balance_after: string;
  reason: string;
  actor_user_id: string | null;
  message_id: string | null;
}

let db: Db;
let stopQueue: () => Promise<void>;
// Opening PGlite takes seconds on a busy machine: more than the unit project's default.
beforeAll(async () => {
  db = await openDatabase(
    loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent' }),
  );
  // A send queues its delivery job in the same statement: the queue must exist.
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const boss = await startQueue({
    databaseUrl: undefined,
    db,
    workers: 0,
    logger: silent,
  });
  stopQueue = () => boss.stop({ graceful: false });
}, 60_000);
afterAll(async () => {
  await stopQueue?.();
  await db.close();
});

async function seed() {
  const suffix = Math.random().toString(36).slice(2);
  const user = await insertUser(db, {
    email: `ledger-${suffix}@example.test`,
    passwordHash: 'x',
    firstName: 'A',
    lastName: 'B',
    organization: '',
  });
  const client = await insertClient(db, {
    userId: user.id,
    name: 'Shop',
    secretHash: 'x',
    maxMessagesPerSecond: null,
  });
  await insertDefaultBalance(db, client.id, 'EUR');
  return { user, client };
}

const sms = (clientId: string, userId: string, price: string) => ({
  clientId,
  ownerId: userId,
  actorUserId: userId,
  sender: 'Shop',
  recipient: '447700900123',
  body: 'hi',
  reference: '',
  encoding: 'GSM-7' as const,
  segments: 1,
  defaultPrice: price,
});

/** Free credit on the client's default balance, granted by `userId`. */
/** The Message a send answered (its 201's JSON text). */
const answerOf = (sent: { answer: string }) =>
  JSON.parse(sent.answer) as Message;

const grant = (clientId: string, userId: string, amount: string) =>
  creditBalance(db, {
    clientId,
    balanceId: clientId,
    amount,
    actorUserId: userId,
  });

async function ledgerOf(clientId: string): Promise<LedgerRow[]> {
  return db.query<LedgerRow>(
    `SELECT amount::text, balance_after::text, reason, actor_user_id, message_id
     FROM balance_ledger WHERE client_id = $1 ORDER BY id`,
    [clientId],
  );
}

async function amountOf(clientId: string): Promise<string> {
  const [row] = await db.query<{ amount: string }>(
    'SELECT amount::text FROM balances WHERE client_id = $1',
    [clientId],
  );
  return row!.amount;
}

describe('the balance ledger', () => {
  it('records every credit and debit with its reason, actor, message and running balance', async () => {
    const { user, client } = await seed();
    const admin = (await seed()).user;
    const credit = (amount: string) =>
      creditBalance(db, {
        clientId: client.id,
        balanceId: client.id,
        amount,
        actorUserId: admin.id,
      });
    await credit('0.1');
    await credit('0.2');
    const sent = await insertAcceptedMessage(
      db,
      sms(client.id, user.id, '0.05'),
    );
    expect(sent.kind).toBe('sent');
    const messageId = sent.kind === 'sent' ? answerOf(sent).id : '';

    expect(await ledgerOf(client.id)).toEqual([
      {
        amount: '0.1000',
        balance_after: '0.1000',
        reason: 'FREE_CREDIT',
        actor_user_id: admin.id,
        message_id: null,
      },
      {
        amount: '0.2000',
        balance_after: '0.3000',
        reason: 'FREE_CREDIT',
        actor_user_id: admin.id,
        message_id: null,
      },
      {
        amount: '-0.0500',
        balance_after: '0.2500',
        reason: 'SMS',
        actor_user_id: user.id,
        message_id: messageId,
      },
    ]);
    expect(await amountOf(client.id)).toBe('0.2500');
    const [message] = await db.query<{ price: string; state: string }>(
      'SELECT price::text, state FROM messages WHERE id = $1',
      [messageId],
    );
    expect(message).toEqual({ price: '0.0500', state: 'ACCEPTED' });
  });

  it('writes nothing when a send is refused for lack of balance', async () => {
    const { user, client } = await seed();
    await grant(client.id, user.id, '0.04');
    const refused = await insertAcceptedMessage(
      db,
      sms(client.id, user.id, '0.05'),
    );
    expect(refused.kind).toBe('no-balance');
    expect(await ledgerOf(client.id)).toHaveLength(1);
    expect(await amountOf(client.id)).toBe('0.0400');
    const messages = await db.query(
      'SELECT id FROM messages WHERE client_id = $1',
      [client.id],
    );
    expect(messages).toHaveLength(0);
  });

  it("writes nothing for another user's client or a balance of another client", async () => {
    const { user, client } = await seed();
    const other = await seed();
    expect(
      (await insertAcceptedMessage(db, sms(client.id, other.user.id, '0')))
        .kind,
    ).toBe('no-client');
    expect(
      await creditBalance(db, {
        clientId: client.id,
        balanceId: other.client.id,
        amount: '5',
        actorUserId: user.id,
      }),
    ).toBeUndefined();
    expect(await ledgerOf(client.id)).toHaveLength(0);
    expect(await ledgerOf(other.client.id)).toHaveLength(0);
    expect(await amountOf(other.client.id)).toBe('0.0000');
  });

  it('keeps the balance equal to the sum of its ledger after many racing sends', async () => {
    const { user, client } = await seed();
    await grant(client.id, user.id, '1.23');
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, () =>
        insertAcceptedMessage(db, sms(client.id, user.id, '0.1')),
      ),
    );
    expect(outcomes.filter((o) => o.kind === 'sent')).toHaveLength(12);
    const [sums] = await db.query<{ total: string; sms: number }>(
      `SELECT sum(amount)::text AS total,
              count(*) FILTER (WHERE reason = 'SMS')::int AS sms
       FROM balance_ledger WHERE client_id = $1`,
      [client.id],
    );
    expect(sums).toEqual({ total: '0.0300', sms: 12 });
    expect(await amountOf(client.id)).toBe('0.0300');
  });

  it('keeps the price a message was charged at on its SMS entry and on its refund', async () => {
    const { user, client } = await seed();
    await grant(client.id, user.id, '1');
    await db.query(
      `INSERT INTO prices (prefix, name, price_per_segment) VALUES ('4477', 'UK test', 0.0725)
       ON CONFLICT (prefix) DO NOTHING`,
    );
    const sent = await insertAcceptedMessage(db, {
      ...sms(client.id, user.id, '0.05'),
      segments: 3,
    });
    expect(sent.kind).toBe('sent');
    const message = sent.kind === 'sent' ? answerOf(sent) : undefined;
    expect(message).toMatchObject({
      price: 0.2175,
      pricePerSegment: 0.0725,
      pricePrefix: '4477',
    });
    const messageId = message?.id ?? '';
    await db.query('SELECT fail_messages($1::uuid[])', [[messageId]]);
    const entries = await db.query<{
      reason: string;
      amount: string;
      price_per_segment: string;
      price_prefix: string;
    }>(
      `SELECT reason, amount::text, price_per_segment::text, price_prefix
       FROM balance_ledger WHERE message_id = $1 ORDER BY id`,
      [messageId],
    );
    expect(entries).toEqual([
      {
        reason: 'SMS',
        amount: '-0.2175',
        price_per_segment: '0.072500',
        price_prefix: '4477',
      },
      {
        reason: 'REFUND',
        amount: '0.2175',
        price_per_segment: '0.072500',
        price_prefix: '4477',
      },
    ]);
    expect(await amountOf(client.id)).toBe('1.0000');
  });
});
