import type { Balance } from '../../../shared/schemas/balances.ts';
import type { Queryable } from '../../db/client.ts';

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
 * Adds `amount` (decimal text) to a client's balance and appends the ledger row, in one
 * statement so the credit and its record cannot part. Undefined when the balance is not that
 * client's.
 */
export async function creditBalance(
  q: Queryable,
  credit: {
    clientId: string;
    balanceId: string;
    amount: string;
    actorUserId: string;
  },
): Promise<Balance | undefined> {
  const [row] = await q.query<BalanceRow>(
    `WITH b AS (
       UPDATE balances SET amount = amount + $3::numeric, date_updated = now()
       WHERE id = $2::uuid AND client_id = $1::uuid
       RETURNING *
     ), ledger AS (
       INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason, actor_user_id)
       SELECT id, client_id, $3::numeric, amount, 'FREE_CREDIT', $4::uuid FROM b
     )
     SELECT ${BALANCE_COLUMNS} FROM b`,
    [credit.clientId, credit.balanceId, credit.amount, credit.actorUserId],
  );
  return row && toBalance(row);
}
