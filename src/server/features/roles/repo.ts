import type { Queryable } from '../../db/client.ts';

/**
 * Locks a user's row until the transaction ends, so role changes of one user are made (and
 * audited with their before and after) one at a time. False when there is no such user.
 */
export async function lockUser(q: Queryable, userId: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [
    userId,
  ]);
  return rows.length > 0;
}
