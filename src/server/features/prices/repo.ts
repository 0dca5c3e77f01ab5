import type { Price } from '../../../shared/schemas/prices.ts';
import type { Queryable } from '../../db/client.ts';
import { selectPage } from '../../db/paging.ts';
import { containsPattern, startsPattern } from '../../db/search.ts';

interface PriceRow {
  prefix: string;
  name: string;
  /** numeric(17, 6) as text: exact. */
  price_per_segment: string;
  blocked: boolean;
}

const COLUMNS = 'prefix, name, price_per_segment::text, blocked';

/** A price as the API shows it: the exact decimal as a JSON number (at most 6 places). */
export function toPrice(row: PriceRow): Price {
  return {
    prefix: row.prefix,
    name: row.name,
    pricePerSegment: Number(row.price_per_segment),
    blocked: row.blocked,
  };
}

/** A price entry as written: its price is decimal text, never a float. */
export interface PriceEntry {
  prefix: string;
  name: string;
  pricePerSegment: string;
  blocked: boolean;
}

/** The entry of a prefix; `forUpdate` locks it so a change's "before" stays true. */
export async function findPrice(
  q: Queryable,
  prefix: string,
  forUpdate = false,
): Promise<Price | undefined> {
  const [row] = await q.query<PriceRow>(
    `SELECT ${COLUMNS} FROM prices WHERE prefix = $1 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [prefix],
  );
  return row && toPrice(row);
}

/** Creates or replaces the entry of a prefix. */
export async function upsertPrice(
  q: Queryable,
  entry: PriceEntry,
): Promise<Price> {
  const [row] = await q.query<PriceRow>(
    `INSERT INTO prices (prefix, name, price_per_segment, blocked)
     VALUES ($1, $2, $3::numeric, $4)
     ON CONFLICT (prefix) DO UPDATE SET name = excluded.name,
       price_per_segment = excluded.price_per_segment, blocked = excluded.blocked,
       date_updated = now()
     RETURNING ${COLUMNS}`,
    [entry.prefix, entry.name, entry.pricePerSegment, entry.blocked],
  );
  return toPrice(row!);
}

/** Deletes the entry of a prefix; answers it, or undefined when there was none. */
export async function deletePrice(
  q: Queryable,
  prefix: string,
): Promise<Price | undefined> {
  const [row] = await q.query<PriceRow>(
    `DELETE FROM prices WHERE prefix = $1 RETURNING ${COLUMNS}`,
    [prefix],
  );
  return row && toPrice(row);
}

/**
 * A page of the list by prefix; with `q`, the entries whose prefix starts with it or whose
 * name holds it (any case).
 */
export async function listPrices(
  q: Queryable,
  search: string | undefined,
  page: { count: number; offset: number },
): Promise<{ prices: Price[]; total: number }> {
  const { items, total } = await selectPage(
    q,
    {
      columns: COLUMNS,
      from: 'prices',
      where: `($1::text IS NULL OR prefix LIKE $1 OR lower(name) LIKE $2)`,
      params: [
        search ? startsPattern(search) : null,
        search ? containsPattern(search) : null,
      ],
      orderBy: 'prefix',
    },
    page,
    toPrice,
  );
  return { prices: items, total };
}

/** The whole list by prefix, prices as the database's exact text. */
export async function allPrices(q: Queryable): Promise<PriceEntry[]> {
  const rows = await q.query<PriceRow>(
    `SELECT ${COLUMNS} FROM prices ORDER BY prefix`,
  );
  return rows.map((row) => ({
    prefix: row.prefix,
    name: row.name,
    pricePerSegment: row.price_per_segment,
    blocked: row.blocked,
  }));
}

/**
 * Replaces the whole list with `entries` in one statement for all of them, answering the list it
 * replaced (by prefix, prices as exact decimal text). Writers of the list wait for the caller's
 * transaction (readers do not), so a PUT cannot slip between the delete and the insert.
 */
export async function replacePrices(
  q: Queryable,
  entries: readonly PriceEntry[],
): Promise<PriceEntry[]> {
  await q.query('LOCK TABLE prices IN SHARE ROW EXCLUSIVE MODE');
  const replaced = await q.query<PriceRow>(
    `DELETE FROM prices RETURNING ${COLUMNS}`,
  );
  await q.query(
    `INSERT INTO prices (prefix, name, price_per_segment, blocked)
     SELECT * FROM unnest($1::text[], $2::text[], $3::numeric[], $4::boolean[])`,
    [
      entries.map((e) => e.prefix),
      entries.map((e) => e.name),
      entries.map((e) => e.pricePerSegment),
      entries.map((e) => e.blocked),
    ],
  );
  return replaced
    .map((row) => ({
      prefix: row.prefix,
      name: row.name,
      pricePerSegment: row.price_per_segment,
      blocked: row.blocked,
    }))
    .sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0));
}
