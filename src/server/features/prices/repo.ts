import type { Price } from '../../../shared/schemas/prices.ts';
import type { Queryable } from '../../db/client.ts';

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
