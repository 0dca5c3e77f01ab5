import type { DeliveryMethod } from '../../../shared/limits.ts';
import type {
  AttemptState,
  Message,
  MessageAttempt,
  MessageCallback,
  MessageFilter,
  MessageState,
} from '../../../shared/schemas/messages.ts';
import type { SmsEncoding } from '../../../shared/sms.ts';
import type { Queryable } from '../../db/client.ts';
import { GroupCommit } from '../../db/group-commit.ts';
import { selectPage, type Page } from '../../db/paging.ts';

/** A messages row, from a query (dates as Date) or from to_jsonb (dates as text). */
interface MessageRow {
  id: string;
  client_id: string;
  sender: string;
  recipient: string;
  body: string;
  reference: string;
  state: MessageState;
  delivery_method: DeliveryMethod | null;
  simulated: boolean;
  encoding: SmsEncoding;
  segments: number;
  price: string | number;
  currency: string;
  date_created: Date | string;
  date_updated: Date | string;
}

const COLUMNS =
  'id, client_id, sender, recipient, body, reference, state, delivery_method, simulated, encoding, segments, price, currency, date_created, date_updated';

const iso = (value: Date | string) => new Date(value).toISOString();

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    clientId: row.client_id,
    sender: row.sender,
    recipient: row.recipient,
    body: row.body,
    reference: row.reference,
    state: row.state,
    deliveryMethod: row.delivery_method ?? null,
    simulated: row.simulated ?? false,
    encoding: row.encoding,
    segments: row.segments,
    price: Number(row.price),
    currency: row.currency,
    dateCreated: iso(row.date_created),
    dateUpdated: iso(row.date_updated),
  };
}

export interface AcceptedSms {
  clientId: string;
  /** The client must belong to this user. */
  ownerId: string;
  actorUserId: string;
  sender: string;
  recipient: string;
  body: string;
  reference: string;
  encoding: SmsEncoding;
  segments: number;
  /** Decimal text. */
  price: string;
  /** Idempotency-Key of the request and a hash of its body, when the caller sent one. */
  idempotency?: { key: string; requestHash: string };
}

export type SendOutcome =
  | { kind: 'sent'; message: Message; replayed: boolean }
  | { kind: 'key-reused' }
  | { kind: 'no-client' }
  | { kind: 'no-balance' };

interface SendRow {
  idx: number;
  message: MessageRow;
  replayed: boolean;
  conflict: boolean;
}

/**
 * Concurrent sends on one database go together: each batch is one call of `send_sms_batch`
 * (migrations/003-delivery.sql), one statement and so one transaction and one commit, which
 * debits, stores each message as ACCEPTED with its ledger row, and queues the delivery jobs.
 */
const batchers = new WeakMap<
  Queryable,
  GroupCommit<AcceptedSms, SendRow | undefined>
>();

function batcherOf(q: Queryable) {
  let batcher = batchers.get(q);
  if (!batcher) {
    batcher = new GroupCommit<AcceptedSms, SendRow | undefined>(
      async (items) => {
        const rows = await q.query<SendRow>(
          'SELECT idx, message, replayed, conflict FROM send_sms_batch($1::jsonb)',
          [
            JSON.stringify(
              items.map((sms) => ({
                clientId: sms.clientId,
                ownerId: sms.ownerId,
                price: sms.price,
                sender: sms.sender,
                recipient: sms.recipient,
                body: sms.body,
                reference: sms.reference,
                encoding: sms.encoding,
                segments: sms.segments,
                actorUserId: sms.actorUserId,
                key: sms.idempotency?.key ?? null,
                hash: sms.idempotency?.requestHash ?? null,
              })),
            ),
          ],
        );
        const byIndex = new Map(rows.map((row) => [row.idx, row]));
        return items.map((_, i) => byIndex.get(i + 1));
      },
      200,
    );
    batchers.set(q, batcher);
  }
  return batcher;
}

/**
 * Debits the price, stores the message as ACCEPTED, appends the ledger row and queues its
 * delivery job, all in one transaction with the other sends of its batch. The debit is
 * conditional (`amount >= price`), so racing sends never overdraw; when no row comes back,
 * nothing was written, and a second look tells an unknown client from a short balance. With an
 * idempotency key, an earlier answer to the same key comes back `replayed` instead.
 */
export async function insertAcceptedMessage(
  q: Queryable,
  sms: AcceptedSms,
): Promise<SendOutcome> {
  const row = await batcherOf(q).push(sms);
  if (row?.conflict) return { kind: 'key-reused' };
  if (row) {
    return {
      kind: 'sent',
      message: toMessage(row.message),
      replayed: row.replayed,
    };
  }
  const owned = await q.query(
    'SELECT 1 FROM clients WHERE id = $1 AND user_id = $2',
    [sms.clientId, sms.ownerId],
  );
  return owned.length > 0 ? { kind: 'no-balance' } : { kind: 'no-client' };
}

/** Idempotency keys are kept 24 hours; older ones are only taking space. */
export async function deleteExpiredIdempotencyKeys(
  q: Queryable,
): Promise<void> {
  await q.query(
    "DELETE FROM idempotency_keys WHERE date_created < now() - interval '24 hours'",
  );
}

/** Whether the client exists and, when `ownerId` is given, belongs to that user. */
export async function clientExists(
  q: Queryable,
  clientId: string,
  ownerId: string | null,
): Promise<boolean> {
  const rows = await q.query(
    'SELECT 1 FROM clients WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2)',
    [clientId, ownerId],
  );
  return rows.length > 0;
}

/** The WHERE clause of the message log's filters, numbered from $1 (the client id). */
function filterClause(
  clientId: string,
  filter: MessageFilter,
): { where: string; params: unknown[] } {
  const params: unknown[] = [clientId];
  const conditions = ['client_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.state) add('state = ?', filter.state);
  if (filter.recipient) add('recipient = ?', filter.recipient);
  if (filter.since) add('date_created >= ?::timestamptz', filter.since);
  if (filter.until) add('date_created < ?::timestamptz', filter.until);
  return { where: conditions.join(' AND '), params };
}

const NEWEST_FIRST = 'date_created DESC, id DESC';

export async function listMessages(
  q: Queryable,
  clientId: string,
  filter: MessageFilter,
  page: { count: number; offset: number },
): Promise<Page<Message>> {
  const { where, params } = filterClause(clientId, filter);
  return selectPage<MessageRow, Message>(
    q,
    {
      columns: COLUMNS,
      from: 'messages',
      where,
      params,
      orderBy: NEWEST_FIRST,
    },
    page,
    toMessage,
  );
}

/**
 * The whole filtered log, newest first, a chunk at a time (keyset paging), so a CSV of any size
 * is streamed without holding it in memory or an open transaction.
 */
export async function* eachMessage(
  q: Queryable,
  clientId: string,
  filter: MessageFilter,
  chunk = 1000,
): AsyncGenerator<Message> {
  const { where, params } = filterClause(clientId, filter);
  // The cursor keeps date_created as the database's text: a JS Date holds milliseconds, the
  // column microseconds, and a cursor cut to the millisecond skipped the rest of a batch of
  // messages that shared one now() (3,000 messages exported as 2,980 rows on PostgreSQL).
  let after: { date: string; id: string } | null = null;
  for (;;) {
    const n = params.length;
    const keyset: string = after
      ? ` AND (date_created, id) < ($${n + 2}::timestamptz, $${n + 3}::uuid)`
      : '';
    const rows: (MessageRow & { cursor_date: string })[] = await q.query<
      MessageRow & { cursor_date: string }
    >(
      `SELECT ${COLUMNS}, date_created::text AS cursor_date FROM messages
       WHERE ${where}${keyset} ORDER BY ${NEWEST_FIRST} LIMIT $${n + 1}`,
      after ? [...params, chunk, after.date, after.id] : [...params, chunk],
    );
    for (const row of rows) yield toMessage(row);
    if (rows.length < chunk) return;
    const last = rows.at(-1)!;
    after = { date: last.cursor_date, id: last.id };
  }
}

interface AttemptRow {
  method: DeliveryMethod;
  state: AttemptState;
  provider_message_id: string | null;
  error: string | null;
  date_created: Date;
}

export async function findMessage(
  q: Queryable,
  clientId: string,
  messageId: string,
): Promise<{
  message: Message;
  attempts: MessageAttempt[];
  callbacks: MessageCallback[];
} | null> {
  const [row] = await q.query<MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE id = $1 AND client_id = $2`,
    [messageId, clientId],
  );
  if (!row) return null;
  const attempts = await q.query<AttemptRow>(
    `SELECT method, state, provider_message_id, error, date_created
     FROM message_attempts WHERE message_id = $1 ORDER BY id`,
    [messageId],
  );
  const callbacks = await q.query<{
    state: string;
    attempt: number;
    http_status: number | null;
    error: string | null;
    date_created: Date;
  }>(
    `SELECT state, attempt, http_status, error, date_created
     FROM message_callbacks WHERE message_id = $1 ORDER BY id`,
    [messageId],
  );
  return {
    callbacks: callbacks.map((c) => ({
      state: c.state,
      attempt: c.attempt,
      status: c.http_status,
      error: c.error,
      dateCreated: c.date_created.toISOString(),
    })),
    message: toMessage(row),
    attempts: attempts.map((a) => ({
      method: a.method,
      state: a.state,
      providerMessageId: a.provider_message_id || null,
      error: a.error,
      dateCreated: a.date_created.toISOString(),
    })),
  };
}
