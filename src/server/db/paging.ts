import type { Queryable } from './client.ts';

/** One page of a list and the size of the whole list, as every list answer carries. */
export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Selects one page and counts the whole list in the same statement (count(*) OVER ()); only a
 * page past the end, which has no row to carry the count, costs a second query.
 */
export async function selectPage<Row, Item>(
  q: Queryable,
  query: {
    columns: string;
    from: string;
    where: string;
    params: unknown[];
    orderBy: string;
  },
  page: { count: number; offset: number },
  toItem: (row: Row) => Item,
): Promise<Page<Item>> {
  const { columns, from, where, params, orderBy } = query;
  const n = params.length;
  const rows = await q.query<Row & { total: number }>(
    `SELECT ${columns}, (count(*) OVER ())::int AS total FROM ${from} WHERE ${where}
     ORDER BY ${orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, page.count, page.offset],
  );
  const total =
    rows[0]?.total ??
    (
      await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${from} WHERE ${where}`,
        params,
      )
    )[0]!.n;
  return { items: rows.map(toItem), total };
}
