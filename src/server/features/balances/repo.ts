import type {
  Balance,
  LedgerEntry,
  LedgerKind,
  Usage,
} from '../../../shared/schemas/balances.ts';
import type { Queryable } from '../../db/client.ts';
import { selectPage } from '../../db/paging.ts';

interface BalanceRow {
  id: string;
  currency: string;
  amount: string;
  min_threshold: string;
  date_created: Date;
  date_updated: Date;
}

/** numeric(15,4) has at most 15 significant digits, so Number() keeps the exact decimal value. */
export function toBalance(row: BalanceRow): Balance {
  return {
    id: row.id,
    currency: row.currency,
    amount: Number(row.amount),
    minThreshold: Number(row.min_threshold),
    dateCreated: row.date_created.toISOString(),
    dateUpdated: row.date_updated.toISOString(),
  };
}

export const BALANCE_COLUMNS =
  'b.id, b.currency, b.amount, b.min_threshold, b.date_created, b.date_updated';

/** The default balance of a client; with `userId`, only if that user owns the client. */
export async function findDefaultBalance(
  q: Queryable,
  clientId: string,
  userId?: string,
): Promise<Balance | undefined> {
  const [row] = await q.query<BalanceRow>(
    `SELECT ${BALANCE_COLUMNS} FROM balances b JOIN clients c ON c.id = b.client_id
     WHERE b.client_id = $1 AND ($2::uuid IS NULL OR c.user_id = $2)`,
    [clientId, userId ?? null],
  );
  return row && toBalance(row);
}

/**
 * Adds `amount` (decimal text) to a client's balance and appends the ledger row with the
 * admin's reason, in one statement so the credit and its record cannot part. Answers the
 * balance after, and the amount before, for the audit. Undefined when the balance is not that
 * client's.
 */
export async function creditBalance(
  q: Queryable,
  credit: {
    clientId: string;
    balanceId: string;
    amount: string;
    reason?: string | null;
    actorUserId: string;
  },
): Promise<{ balance: Balance; amountBefore: number } | undefined> {
  const [row] = await q.query<BalanceRow & { amount_before: string }>(
    `WITH b AS (
       UPDATE balances SET amount = amount + $3::numeric, date_updated = now()
       WHERE id = $2::uuid AND client_id = $1::uuid
       RETURNING *
     ), ledger AS (
       INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason, note,
                                   actor_user_id)
       SELECT id, client_id, $3::numeric, amount, 'FREE_CREDIT', $5, $4::uuid FROM b
     )
     SELECT ${BALANCE_COLUMNS}, b.amount - $3::numeric AS amount_before FROM b`,
    [
      credit.clientId,
      credit.balanceId,
      credit.amount,
      credit.actorUserId,
      credit.reason ?? null,
    ],
  );
  return (
    row && { balance: toBalance(row), amountBefore: Number(row.amount_before) }
  );
}

/**
 * Sets a balance's low-balance warning level. Answers the balance after and the level before;
 * undefined when the balance is not that client's.
 */
export async function updateThreshold(
  q: Queryable,
  change: { clientId: string; balanceId: string; minThreshold: string },
): Promise<{ balance: Balance; thresholdBefore: number } | undefined> {
  const [row] = await q.query<BalanceRow & { threshold_before: string }>(
    `WITH old AS (
       SELECT id, min_threshold FROM balances
       WHERE id = $2::uuid AND client_id = $1::uuid FOR UPDATE
     ), b AS (
       UPDATE balances SET min_threshold = $3::numeric, date_updated = now()
       FROM old WHERE balances.id = old.id
       RETURNING balances.*
     )
     SELECT ${BALANCE_COLUMNS}, old.min_threshold AS threshold_before FROM b JOIN old ON old.id = b.id`,
    [change.clientId, change.balanceId, change.minThreshold],
  );
  return (
    row && {
      balance: toBalance(row),
      thresholdBefore: Number(row.threshold_before),
    }
  );
}

interface LedgerRow {
  id: string;
  kind: LedgerKind;
  amount: string;
  balance_after: string;
  note: string | null;
  message_id: string | null;
  recipient: string | null;
  segments: number | null;
  price_per_segment: string | null;
  price_prefix: string | null;
  date_created: Date;
}

function toLedgerEntry(row: LedgerRow): LedgerEntry {
  return {
    id: row.id,
    kind: row.kind,
    amount: Number(row.amount),
    balanceAfter: Number(row.balance_after),
    reason: row.note,
    messageId: row.message_id,
    recipient: row.recipient,
    segments: row.segments,
    pricePerSegment:
      row.price_per_segment === null ? null : Number(row.price_per_segment),
    pricePrefix: row.price_prefix,
    dateCreated: row.date_created.toISOString(),
  };
}

/** Which of a balance's ledger entries: a kind, and a period [since, before). */
export interface LedgerFilter {
  kind?: LedgerKind | undefined;
  /** ISO time, included. */
  since?: string | undefined;
  /** ISO time, excluded. */
  before?: string | undefined;
}

const LEDGER_COLUMNS = `l.id::text AS id, l.reason AS kind, l.amount, l.balance_after, l.note,
  l.message_id, m.recipient, m.segments, l.price_per_segment, l.price_prefix, l.date_created`;
const LEDGER_FROM =
  'balance_ledger l LEFT JOIN messages m ON m.id = l.message_id';
const LEDGER_WHERE = `l.balance_id = $1 AND ($2::text IS NULL OR l.reason = $2)
  AND ($3::timestamptz IS NULL OR l.date_created >= $3)
  AND ($4::timestamptz IS NULL OR l.date_created < $4)`;

function ledgerParams(balanceId: string, filter: LedgerFilter): unknown[] {
  return [
    balanceId,
    filter.kind ?? null,
    filter.since ?? null,
    filter.before ?? null,
  ];
}

/** One page of a balance's ledger, newest first (ids grow in the order entries were made). */
export async function listLedger(
  q: Queryable,
  balanceId: string,
  filter: LedgerFilter,
  page: { count: number; offset: number },
): Promise<{ entries: LedgerEntry[]; total: number }> {
  const { items, total } = await selectPage(
    q,
    {
      columns: LEDGER_COLUMNS,
      from: LEDGER_FROM,
      where: LEDGER_WHERE,
      params: ledgerParams(balanceId, filter),
      orderBy: 'l.id DESC',
    },
    page,
    toLedgerEntry,
  );
  return { entries: items, total };
}

/**
 * A batch of a balance's ledger entries older than `beforeId` (newest first): the CSV export
 * walks the whole ledger this way, a bounded batch at a time, whatever its length.
 */
export async function ledgerBatch(
  q: Queryable,
  balanceId: string,
  filter: LedgerFilter,
  beforeId: string | null,
  size: number,
): Promise<LedgerEntry[]> {
  const rows = await q.query<LedgerRow>(
    `SELECT ${LEDGER_COLUMNS} FROM ${LEDGER_FROM}
     WHERE ${LEDGER_WHERE} AND ($5::bigint IS NULL OR l.id < $5::bigint)
     ORDER BY l.id DESC LIMIT $6`,
    [...ledgerParams(balanceId, filter), beforeId, size],
  );
  return rows.map(toLedgerEntry);
}

/**
 * Messages, segments and amount spent per UTC day, every day from `firstDay` to `lastDay`
 * (zeros included), counting entries in [since, before). Refunds subtract from the amount.
 * Computed by the database, in numeric.
 */
export async function usagePerDay(
  q: Queryable,
  balanceId: string,
  period: { firstDay: string; lastDay: string; since: string; before: string },
): Promise<Usage['days']> {
  const rows = await q.query<{
    date: string;
    messages: number;
    segments: number;
    amount: string;
  }>(
    `WITH days AS (
       SELECT d::date AS day
       FROM generate_series($2::date, $3::date, interval '1 day') AS d
     ), entries AS (
       SELECT (l.date_created AT TIME ZONE 'UTC')::date AS day, l.reason, l.amount, m.segments
       FROM balance_ledger l LEFT JOIN messages m ON m.id = l.message_id
       WHERE l.balance_id = $1 AND l.reason IN ('SMS', 'REFUND')
         AND l.date_created >= $4::timestamptz AND l.date_created < $5::timestamptz
     )
     SELECT to_char(days.day, 'YYYY-MM-DD') AS date,
       (count(entries.reason) FILTER (WHERE entries.reason = 'SMS'))::int AS messages,
       coalesce(sum(entries.segments) FILTER (WHERE entries.reason = 'SMS'), 0)::int AS segments,
       coalesce(-sum(entries.amount), 0)::text AS amount
     FROM days LEFT JOIN entries ON entries.day = days.day
     GROUP BY days.day ORDER BY days.day`,
    [balanceId, period.firstDay, period.lastDay, period.since, period.before],
  );
  return rows.map((row) => ({
    date: row.date,
    messages: row.messages,
    segments: row.segments,
    amount: Number(row.amount),
  }));
}
