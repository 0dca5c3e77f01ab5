import type { DeliveryMethod } from '../../../shared/limits.ts';
import type {
  RouteSplit,
  RouteSplitWithShare,
} from '../../../shared/schemas/route-splits.ts';
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
  { forUpdate = false } = {},
): Promise<RouteSplit | undefined> {
  const [row] = await q.query<RouteSplitRow>(
    `SELECT ${COLUMNS} FROM route_splits WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
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

/** Deletes a split; answers what it was, or undefined when there was none. */
export async function deleteRouteSplit(
  q: Queryable,
  id: string,
): Promise<RouteSplit | undefined> {
  const [row] = await q.query<RouteSplitRow>(
    `DELETE FROM route_splits WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  );
  return row && toRouteSplit(row);
}

export async function listRouteSplits(
  q: Queryable,
  filter: { userId?: string | undefined; clientId?: string | undefined },
  page: { count: number; offset: number },
): Promise<{ routes: RouteSplitWithShare[]; total: number }> {
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
  return { routes: await withShares(q, items), total };
}

/**
 * Configured and realised shares of a page of splits, computed by the database: the client's
 * messages of the last 24 hours by delivery method (messages_client_idx serves the range).
 */
async function withShares(
  q: Queryable,
  splits: RouteSplit[],
): Promise<RouteSplitWithShare[]> {
  if (splits.length === 0) return [];
  const rows = await q.query<{
    id: string;
    configured_share: string;
    realised_share: string | null;
    messages_24h: number;
  }>(
    `WITH s AS (SELECT id, client_id, delivery_method, weight FROM route_splits
                WHERE id = ANY($1::uuid[])),
     c AS (
       SELECT client_id,
              (SELECT sum(weight) FROM route_splits r
               WHERE r.client_id = x.client_id AND r.weight > 0) AS weights,
              (SELECT count(*) FROM messages m
               WHERE m.client_id = x.client_id AND m.date_created > now() - interval '24 hours'
                 AND m.delivery_method IS NOT NULL) AS routed
       FROM (SELECT DISTINCT client_id FROM s) x
     )
     SELECT s.id,
            CASE WHEN s.weight > 0 AND c.weights > 0
                 THEN round(s.weight::numeric / c.weights, 4) ELSE 0 END AS configured_share,
            CASE WHEN c.routed > 0 THEN round(n.n::numeric / c.routed, 4) END AS realised_share,
            n.n AS messages_24h
     FROM s JOIN c USING (client_id)
     CROSS JOIN LATERAL (
       SELECT count(*)::int AS n FROM messages m
       WHERE m.client_id = s.client_id AND m.date_created > now() - interval '24 hours'
         AND m.delivery_method = s.delivery_method
     ) n`,
    [splits.map((split) => split.id)],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return splits.map((split) => {
    const row = byId.get(split.id);
    return {
      ...split,
      configuredShare: Number(row?.configured_share ?? 0),
      realisedShare:
        row?.realised_share == null ? null : Number(row.realised_share),
      messages24h: row?.messages_24h ?? 0,
    };
  });
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
