import type { Queryable } from '../../db/client.ts';

/** A balance whose ledger does not account for it. */
export interface LedgerDifference {
  balanceId: string;
  clientId: string;
  /** What is wrong, in words an operator can act on. */
  problem: string;
}

/**
 * The ledger is the truth: every balance must equal the sum of its ledger rows, and each row's
 * `balance_after` the running sum up to it (ids grow in the order the balance row was locked,
 * so the running sum follows the real order of credits and debits). Answers every difference;
 * none means the books hold. Read in one statement, so in one snapshot.
 */
export async function ledgerDifferences(
  q: Queryable,
): Promise<LedgerDifference[]> {
  const rows = await q.query<{
    balance_id: string;
    client_id: string;
    amount: string;
    ledger_sum: string;
    broken_id: string | null;
    broken_after: string | null;
    running: string | null;
    sum_differs: boolean;
  }>(
    `WITH running AS (
       SELECT l.balance_id, l.id, l.balance_after,
         sum(l.amount) OVER (PARTITION BY l.balance_id ORDER BY l.id) AS running
       FROM balance_ledger l JOIN balances b ON b.id = l.balance_id
     ), first_break AS (
       SELECT DISTINCT ON (balance_id) balance_id, id, balance_after, running
       FROM running WHERE balance_after <> running
       ORDER BY balance_id, id
     ), sums AS (
       SELECT balance_id, sum(amount) AS total FROM balance_ledger GROUP BY balance_id
     )
     SELECT b.id AS balance_id, b.client_id, b.amount::text,
       coalesce(s.total, 0)::text AS ledger_sum,
       f.id::text AS broken_id, f.balance_after::text AS broken_after, f.running::text,
       b.amount <> coalesce(s.total, 0) AS sum_differs
     FROM balances b
     LEFT JOIN sums s ON s.balance_id = b.id
     LEFT JOIN first_break f ON f.balance_id = b.id
     WHERE b.amount <> coalesce(s.total, 0) OR f.id IS NOT NULL
     ORDER BY b.client_id`,
  );
  return rows.flatMap((row) => {
    const found: LedgerDifference[] = [];
    const base = { balanceId: row.balance_id, clientId: row.client_id };
    if (row.sum_differs) {
      found.push({
        ...base,
        problem: `balance is ${row.amount} but its ledger sums to ${row.ledger_sum}`,
      });
    }
    if (row.broken_id !== null) {
      found.push({
        ...base,
        problem: `ledger entry ${row.broken_id} says the balance was ${row.broken_after} after it, but the entries up to it sum to ${row.running}`,
      });
    }
    return found;
  });
}
