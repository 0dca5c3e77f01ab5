import type { Queryable } from './client.ts';

/** One page of a list and the size of the whole list, as every list answer carries. */
export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * The window column's name: one no table has, so it can neither overwrite an item's own column
 * (batches have a `total`, their recipients) nor be mistaken for one. Removed from the rows.
 */
const PAGE_TOTAL = 'page_total__';

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
  const rows = await q.query<Row & { [PAGE_TOTAL]: number }>(
    `SELECT ${columns}, (count(*) OVER ())::int AS ${PAGE_TOTAL} FROM ${from} WHERE ${where}
     ORDER BY ${orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, page.count, page.offset],
  );
  const total =
    rows[0]?.[PAGE_TOTAL] ??
    (
      await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${from} WHERE ${where}`,
        params,
      )
    )[0]!.n;
  const items = rows.map((row) => {
    const { [PAGE_TOTAL]: _pageTotal, ...own } = row;
    return toItem(own as Row);
  });
  return { items, total };
}
