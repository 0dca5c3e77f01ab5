import type { DeliveryMethod } from '../../../shared/limits.ts';
import type { RouteSplit } from '../../../shared/schemas/route-splits.ts';
import type { Queryable } from '../../db/client.ts';
import { selectPage } from '../../db/paging.ts';

interface RouteSplitRow {
  id: string;
  user_id: string;
  client_id: string;
  delivery_method: DeliveryMethod;
  weight: number;
}

const COLUMNS = 'id, user_id, client_id, delivery_method, weight';

export function toRouteSplit(row: RouteSplitRow): RouteSplit {
  return {
    id: row.id,
    userId: row.user_id,
    clientId: row.client_id,
    deliveryMethod: row.delivery_method,
    weight: row.weight,
  };
}

/** Inserts a split only when the client belongs to the user; undefined otherwise. */
export async function insertRouteSplit(
  q: Queryable,
  split: {
    userId: string;
    clientId: string;
    deliveryMethod: DeliveryMethod;
    weight: number;
  },
): Promise<RouteSplit | undefined> {
  const [row] = await q.query<RouteSplitRow>(
    `INSERT INTO route_splits (user_id, client_id, delivery_method, weight)
     SELECT user_id, id, $3::text, $4::int FROM clients
     WHERE id = $2::uuid AND user_id = $1::uuid
     RETURNING ${COLUMNS}`,
    [split.userId, split.clientId, split.deliveryMethod, split.weight],
  );
  return row && toRouteSplit(row);
}

export async function findRouteSplit(
  q: Queryable,
  id: string,
): Promise<RouteSplit | undefined> {
  const [row] = await q.query<RouteSplitRow>(
    `SELECT ${COLUMNS} FROM route_splits WHERE id = $1`,
    [id],
  );
  return row && toRouteSplit(row);
}

export async function updateRouteSplit(
  q: Queryable,
  id: string,
  change: { deliveryMethod: DeliveryMethod; weight: number },
): Promise<RouteSplit | undefined> {
  const [row] = await q.query<RouteSplitRow>(
    `UPDATE route_splits SET delivery_method = $2, weight = $3, date_updated = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, change.deliveryMethod, change.weight],
  );
  return row && toRouteSplit(row);
}

export async function deleteRouteSplit(
  q: Queryable,
  id: string,
): Promise<boolean> {
  const rows = await q.query(
    'DELETE FROM route_splits WHERE id = $1 RETURNING id',
    [id],
  );
  return rows.length > 0;
}

export async function listRouteSplits(
  q: Queryable,
  filter: { userId?: string | undefined; clientId?: string | undefined },
  page: { count: number; offset: number },
): Promise<{ routes: RouteSplit[]; total: number }> {
  const { items, total } = await selectPage(
    q,
    {
      columns: COLUMNS,
      from: 'route_splits',
      where:
        '($1::uuid IS NULL OR user_id = $1) AND ($2::uuid IS NULL OR client_id = $2)',
      params: [filter.userId ?? null, filter.clientId ?? null],
      orderBy: 'date_created, id',
    },
    page,
    toRouteSplit,
  );
  return { routes: items, total };
}

/** Why a split could not be created: its user or its client does not exist (or neither). */
export async function findMissingOwner(
  q: Queryable,
  split: { userId: string; clientId: string },
): Promise<'user' | 'client' | undefined> {
  const [row] = await q.query<{ user_found: boolean; client_found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1) AS user_found,
            EXISTS (SELECT 1 FROM clients WHERE id = $2) AS client_found`,
    [split.userId, split.clientId],
  );
  if (!row?.user_found) return 'user';
  if (!row.client_found) return 'client';
  return undefined;
}
