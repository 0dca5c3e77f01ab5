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
import { deliveryErrorFields } from '../../../shared/delivery-errors.ts';

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
  /** Absent only from answers stored (to_jsonb) before prices by destination. */
  /** Set on every message since migrations/014 (which backfilled the older ones). */
  price_per_segment: string | number;
  price_prefix?: string | null;
  /** Absent only from answers stored (to_jsonb) before campaigns. */
  batch_id?: string | null;
  send_at?: Date | string | null;
  date_created: Date | string;
  date_updated: Date | string;
}

const COLUMNS =
  'id, client_id, sender, recipient, body, reference, state, delivery_method, simulated, encoding, segments, price, currency, price_per_segment, price_prefix, batch_id, send_at, date_created, date_updated';

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
    pricePerSegment: Number(row.price_per_segment),
    pricePrefix: row.price_prefix ?? null,
    currency: row.currency,
    batchId: row.batch_id ?? null,
    sendAt: row.send_at ? iso(row.send_at) : null,
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
  /** SMS_PRICE as decimal text: the price per segment where no price list entry matches. */
  defaultPrice: string;
  /** Idempotency-Key of the request and a hash of its body, when the caller sent one. */
  idempotency?: { key: string; requestHash: string };
  /** ISO 8601: held SCHEDULED until then, its delivery job starting then. */
  sendAt?: string;
  /**
   * A keyword's auto-reply: the inbound message it answers. It goes to an opted-out recipient
   * all the same, and is written once per inbound message (`replied` when it already was).
   */
  replyTo?: string;
}

/** Where a refused send was going: the price list entry its recipient matched, if any. */
export interface Destination {
  prefix: string | null;
  name: string | null;
}

export type SendOutcome =
  /** `answer`: the 201's body, the Message as JSON text. */
  | { kind: 'sent'; answer: string; replayed: boolean }
  | { kind: 'key-reused' }
  | { kind: 'no-client' }
  | { kind: 'no-balance' }
  /** The recipient opted out of the client's messages (an optouts row). */
  | { kind: 'opted-out' }
  /** An auto-reply to an inbound message that was answered already. */
  | { kind: 'replied' }
  | { kind: 'blocked' | 'not-allowed'; destination: Destination }
  | { kind: 'throttled'; retryAfterSeconds: number };

type Refusal =
  | 'no-client'
  | 'no-balance'
  | 'blocked'
  | 'not-allowed'
  | 'throttled'
  | 'opted-out'
  | 'replied';

interface SendRow {
  idx: number;
  /** The stored answer of a key replayed from an earlier group (to_jsonb of its message). */
  message: MessageRow | null;
  /** The send's answer as JSON text (message_json, migrations/functions/message_json.sql). */
  answer: string | null;
  replayed: boolean;
  conflict: boolean;
  refusal: Refusal | null;
  price_prefix: string | null;
  price_name: string | null;
  retry_after: number | null;
}

/**
 * Concurrent sends on one database go together: each batch is one call of `send_sms_batch`
 * (migrations/functions/send_sms_batch.sql), one statement and so one transaction and one commit, which
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
          `SELECT idx, message, replayed, conflict, refusal, price_prefix, price_name, retry_after,
                  answer
           FROM send_sms_batch($1::jsonb)`,
          [
            JSON.stringify(
              items.map((sms) => ({
                clientId: sms.clientId,
                ownerId: sms.ownerId,
                defaultPrice: sms.defaultPrice,
                sender: sms.sender,
                recipient: sms.recipient,
                body: sms.body,
                reference: sms.reference,
                encoding: sms.encoding,
                segments: sms.segments,
                actorUserId: sms.actorUserId,
                key: sms.idempotency?.key ?? null,
                hash: sms.idempotency?.requestHash ?? null,
                sendAt: sms.sendAt ?? null,
                replyTo: sms.replyTo ?? null,
              })),
            ),
          ],
        );
        const byIndex = new Map(rows.map((row) => [row.idx, row]));
        return items.map((_, i) => byIndex.get(i + 1));
      },
      // Two groups at once: one commits while the next is decided (migrations/025).
      { max: 200, inFlight: 2 },
    );
    batchers.set(q, batcher);
  }
  return batcher;
}

/**
 * Prices the message at its recipient's destination (migrations/functions/price_sms.sql), checks the
 * destination is open to the client and the client within its messages a second, debits the
 * amount, stores the message as ACCEPTED (with a sendAt: SCHEDULED, migrations/019), appends the
 * ledger row and queues its delivery job (a scheduled one's starting at its sendAt),
 * all in one transaction with the other sends of its batch, and answers the message as the
 * 201's JSON text. The debit is conditional
 * (`amount >= price`), so racing sends never overdraw; a refused send wrote nothing and its
 * refusal says why. With an idempotency key, an earlier answer to the same key comes back
 * `replayed` instead.
 */
export async function insertAcceptedMessage(
  q: Queryable,
  sms: AcceptedSms,
): Promise<SendOutcome> {
  const row = await batcherOf(q).push(sms);
  if (!row) throw new Error('send_sms_batch answered no row for a send');
  if (row.conflict) return { kind: 'key-reused' };
  switch (row.refusal) {
    case null:
      // The database wrote the answer (message_json): of a message of this group, or of the
      // message a key's earlier group stored, as it was then.
      if (row.answer === null) {
        throw new Error('send_sms_batch answered a send without its answer');
      }
      return { kind: 'sent', answer: row.answer, replayed: row.replayed };
    case 'blocked':
    case 'not-allowed':
      return {
        kind: row.refusal,
        destination: { prefix: row.price_prefix, name: row.price_name },
      };
    case 'throttled':
      return { kind: 'throttled', retryAfterSeconds: row.retry_after ?? 1 };
    default:
      return { kind: row.refusal };
  }
}

/**
 * Cancels a SCHEDULED message and refunds it (migrations/functions/cancel_messages.sql): true when this
 * call cancelled it, false when it was not SCHEDULED (any more): released, cancelled already by a
 * racing call, or never scheduled. The caller has checked that it is the client's.
 */
export async function cancelMessage(
  q: Queryable,
  messageId: string,
): Promise<boolean> {
  const rows = await q.query(
    'SELECT id FROM cancel_messages(ARRAY[$1::uuid]) AS id',
    [messageId],
  );
  return rows.length > 0;
}

/** One message of a client as its answer's JSON text (message_json); null when not there. */
export async function messageAnswer(
  q: Queryable,
  clientId: string,
  messageId: string,
): Promise<string | null> {
  const [row] = await q.query<{ answer: string }>(
    'SELECT message_json(m) AS answer FROM messages m WHERE id = $1 AND client_id = $2',
    [messageId, clientId],
  );
  return row?.answer ?? null;
}

/** One message of a client, without its attempts and callbacks; null when it is not there. */
export async function getMessage(
  q: Queryable,
  clientId: string,
  messageId: string,
): Promise<Message | null> {
  const [row] = await q.query<MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE id = $1 AND client_id = $2`,
    [messageId, clientId],
  );
  return row ? toMessage(row) : null;
}

/** What a send of `segments` to `recipient` from this client would cost and whether it may. */
export interface PricedSms {
  pricePrefix: string | null;
  priceName: string | null;
  /** Decimal text. */
  pricePerSegment: string;
  /** Decimal text, at the balance's scale. */
  amount: string;
  refusal: 'blocked' | 'not-allowed' | 'opted-out' | null;
}

/**
 * The quote of a send, computed by the very SQL the send is charged with (price_sms). Null when
 * the client is unknown or not `ownerId`'s.
 */
export async function priceSms(
  q: Queryable,
  sms: {
    clientId: string;
    ownerId: string;
    recipient: string;
    segments: number;
    defaultPrice: string;
  },
): Promise<PricedSms | null> {
  const rows = await q.query<{
    price_prefix: string | null;
    price_name: string | null;
    price_per_segment: string;
    amount: string;
    refusal: 'blocked' | 'not-allowed' | 'opted-out' | null;
  }>(
    // The send's own order: a closed destination first, then an opt-out (send_sms_batch).
    `SELECT p.price_prefix, p.price_name, p.price_per_segment::text AS price_per_segment,
            p.amount::text AS amount,
            CASE WHEN p.refusal IS NULL AND EXISTS (
                   SELECT 1 FROM optouts o WHERE o.client_id = c.id AND o.number = $3)
                 THEN 'opted-out' ELSE p.refusal END AS refusal
     FROM clients c, price_sms($3, $4, $5::numeric, c.allowed_prefixes) p
     WHERE c.id = $1 AND c.user_id = $2`,
    [sms.clientId, sms.ownerId, sms.recipient, sms.segments, sms.defaultPrice],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    pricePrefix: row.price_prefix,
    priceName: row.price_name,
    pricePerSegment: row.price_per_segment,
    amount: row.amount,
    refusal: row.refusal,
  };
}

/** Idempotency keys are kept 24 hours; older ones are only taking space. */
export async function deleteExpiredIdempotencyKeys(
  q: Queryable,
): Promise<void> {
  await q.query(
    "DELETE FROM idempotency_keys WHERE date_created < now() - interval '24 hours'",
  );
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
  if (filter.batchId) add('batch_id = ?', filter.batchId);
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
  const message = await getMessage(q, clientId, messageId);
  if (!message) return null;
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
    message,
    attempts: attempts.map((a) => ({
      method: a.method,
      state: a.state,
      providerMessageId: a.provider_message_id || null,
      error: a.error,
      ...deliveryErrorFields(a.method, a.state, a.error),
      dateCreated: a.date_created.toISOString(),
    })),
  };
}
