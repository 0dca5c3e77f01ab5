import type { Queryable } from '../db/client.ts';
import { notFound } from '../errors.ts';

/**
 * Whose client a call may read: the owner's own (ownerId), or any for staff (ownerId null, the
 * admin scope has checked the role). An unknown client, or another user's, answers 404.
 */
export async function checkClient(
  deps: { db: Queryable },
  clientId: string,
  ownerId: string | null,
): Promise<void> {
  const rows = await deps.db.query(
    'SELECT 1 FROM clients WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2)',
    [clientId, ownerId],
  );
  if (rows.length === 0) throw notFound('Client');
}
