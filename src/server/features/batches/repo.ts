import type { Batch, CreatedBatch } from '../../../shared/schemas/campaigns.ts';
import type { MessageState } from '../../../shared/schemas/messages.ts';
import type { SmsEncoding } from '../../../shared/sms.ts';
import type { Queryable } from '../../db/client.ts';
import { selectPage, type Page } from '../../db/paging.ts';

/** A batches row, from a query (dates as Date) or from to_jsonb (dates as text). */
interface BatchRow {
  id: string;
  sender: string;
  body: string;
  total: number;
  amount: string | number;
  send_at: Date | string | null;
  date_created: Date | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function toCreated(row: BatchRow): CreatedBatch {
  return {
    id: row.id,
    total: row.total,
    amount: Number(row.amount),
    sendAt: row.send_at ? iso(row.send_at) : null,
    dateCreated: iso(row.date_created),
  };
}

export interface NewBatch {
  clientId: string;
  /** The client must belong to this user. */
  ownerId: string;
  actorUserId: string;
  sender: string;
  body: string;
  encoding: SmsEncoding;
  segments: number;
  /** Cleaned, valid and distinct. */
  recipients: string[];
  sendAt: string | null;
  /** SMS_PRICE as decimal text: the price per segment where no price list entry matches. */
  defaultPrice: string;
  /** Idempotency-Key of the request and a hash of its body, when the caller sent one. */
  idempotency?: { key: string; requestHash: string } | undefined;
}

/** A recipient whose destination is refused: its position in `recipients` (from 0). */
export interface RefusedRecipient {
  position: number;
  /** opted-out: the recipient opted out of the client's messages (issue 32). */
  refusal: 'blocked' | 'not-allowed' | 'opted-out';
  prefix: string | null;
  name: string | null;
}

export type BatchOutcome =
  | { kind: 'created'; batch: CreatedBatch; replayed: boolean }
  | { kind: 'key-reused' }
  | { kind: 'no-client' }
  | { kind: 'no-balance' }
  | { kind: 'refused'; refused: RefusedRecipient[] };

/**
 * All or nothing, in one statement (migrations/functions/create_batch.sql): prices every
 * recipient with price_sms; if none is refused and the balance holds the total, debits it once
 * and writes the batch, its messages, their ledger rows and delivery jobs in bulk.
 */
export async function createBatch(
  q: Queryable,
  batch: NewBatch,
): Promise<BatchOutcome> {
  const [row] = await q.query<{
    batch: BatchRow | null;
    replayed: boolean;
    conflict: boolean;
    refusal: 'no-client' | 'no-balance' | 'refused' | null;
    refused: RefusedRecipient[] | null;
  }>(
    `SELECT batch, replayed, conflict, refusal, refused
     FROM create_batch($1, $2, $3, $4::numeric, $5, $6, $7, $8, $9::text[], $10::timestamptz,
                       $11, $12)`,
    [
      batch.clientId,
      batch.ownerId,
      batch.actorUserId,
      batch.defaultPrice,
      batch.sender,
      batch.body,
      batch.encoding,
      batch.segments,
      batch.recipients,
      batch.sendAt,
      batch.idempotency?.key ?? null,
      batch.idempotency?.requestHash ?? null,
    ],
  );
  if (!row) throw new Error('create_batch answered no row');
  if (row.conflict) return { kind: 'key-reused' };
  switch (row.refusal) {
    case null:
      return {
        kind: 'created',
        batch: toCreated(row.batch!),
        replayed: row.replayed,
      };
    case 'refused':
      // SQL counts positions from 1.
      return {
        kind: 'refused',
        refused: row.refused!.map((r) => ({ ...r, position: r.position - 1 })),
      };
    default:
      return { kind: row.refusal };
  }
}

/** Its messages by state, counted by the database on messages_batch_idx. */
const STATES_OF_BATCH = `(SELECT coalesce(jsonb_object_agg(s.state, s.n), '{}'::jsonb)
   FROM (SELECT m.state, count(*)::int AS n FROM messages m
         WHERE m.batch_id = b.id GROUP BY m.state) s) AS states`;
const BATCH_COLUMNS = `b.id, b.sender, b.body, b.total, b.amount, b.send_at, b.date_created,
  ${STATES_OF_BATCH}`;

function toBatch(
  row: BatchRow & { states: Partial<Record<MessageState, number>> },
): Batch {
  return {
    ...toCreated(row),
    body: row.body,
    sender: row.sender,
    states: row.states,
  };
}

/** A client's batches, newest first, each with its live counts by state. */
export async function listBatches(
  q: Queryable,
  clientId: string,
  page: { count: number; offset: number },
): Promise<Page<Batch>> {
  return selectPage(
    q,
    {
      columns: BATCH_COLUMNS,
      from: 'batches b',
      where: 'b.client_id = $1',
      params: [clientId],
      orderBy: 'b.date_created DESC, b.id DESC',
    },
    page,
    toBatch,
  );
}

/** One batch of the client, or null. */
export async function findBatch(
  q: Queryable,
  clientId: string,
  batchId: string,
): Promise<Batch | null> {
  const [row] = await q.query<
    BatchRow & { states: Partial<Record<MessageState, number>> }
  >(
    `SELECT ${BATCH_COLUMNS} FROM batches b WHERE b.id = $1 AND b.client_id = $2`,
    [batchId, clientId],
  );
  return row ? toBatch(row) : null;
}

/**
 * Its messages not yet taken by a provider (SCHEDULED, or ACCEPTED with no worker holding them)
 * become CANCELED, each refunded once (cancel_untaken_messages); answers how many.
 */
export async function cancelUntaken(
  q: Queryable,
  batchId: string,
): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM cancel_untaken_messages(ARRAY(
       SELECT id FROM messages WHERE batch_id = $1 AND state IN ('SCHEDULED', 'ACCEPTED')))`,
    [batchId],
  );
  return row?.n ?? 0;
}
