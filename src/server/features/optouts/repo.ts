import type { OptOut, OptOutSource } from '../../../shared/schemas/optouts.ts';
import type { Queryable } from '../../db/client.ts';
import { selectPage, type Page } from '../../db/paging.ts';

interface OptOutRow {
  number: string;
  source: OptOutSource;
  date_created: Date | string;
}

const toOptOut = (row: OptOutRow): OptOut => ({
  number: row.number,
  source: row.source,
  dateCreated: new Date(row.date_created).toISOString(),
});

const NEWEST_FIRST = 'date_created DESC, number DESC';

export async function listOptOuts(
  q: Queryable,
  clientId: string,
  page: { count: number; offset: number },
): Promise<Page<OptOut>> {
  return selectPage<OptOutRow, OptOut>(
    q,
    {
      columns: 'number, source, date_created',
      from: 'optouts',
      where: 'client_id = $1',
      params: [clientId],
      orderBy: NEWEST_FIRST,
    },
    page,
    toOptOut,
  );
}

/** Every opt-out of a client, newest first, a chunk at a time (keyset paging), for the CSV. */
export async function* eachOptOut(
  q: Queryable,
  clientId: string,
  chunk = 1000,
): AsyncGenerator<OptOut> {
  // The cursor keeps date_created as the database's text (microseconds; a JS Date has ms).
  let after: { date: string; number: string } | null = null;
  for (;;) {
    const rows: (OptOutRow & { cursor_date: string })[] = await q.query<
      OptOutRow & { cursor_date: string }
    >(
      `SELECT number, source, date_created, date_created::text AS cursor_date FROM optouts
       WHERE client_id = $1 ${after ? 'AND (date_created, number) < ($3::timestamptz, $4)' : ''}
       ORDER BY ${NEWEST_FIRST} LIMIT $2`,
      after ? [clientId, chunk, after.date, after.number] : [clientId, chunk],
    );
    for (const row of rows) yield toOptOut(row);
    if (rows.length < chunk) return;
    const last = rows.at(-1)!;
    after = { date: last.cursor_date, number: last.number };
  }
}

/**
 * Opts `number` out of the client's messages (opt_out_numbers, source api): the row as it is
 * now (a keyword one stays keyword), whether this call opted it out, and how many SCHEDULED
 * messages to it were cancelled and refunded. Null when the client does not exist.
 */
export async function optOut(
  q: Queryable,
  clientId: string,
  number: string,
): Promise<{ optOut: OptOut; taken: boolean; canceled: number } | null> {
  const [row] = await q.query<OptOutRow & { taken: boolean; canceled: number }>(
    `SELECT number, source, date_created, taken, canceled
     FROM opt_out_numbers(ARRAY[$1::uuid], ARRAY[$2::text], 'api')`,
    [clientId, number],
  );
  if (!row) return null;
  return { optOut: toOptOut(row), taken: row.taken, canceled: row.canceled };
}

/**
 * Ends an api opt-out: 'deleted'; 'keyword' when the number opted out itself (only its START
 * ends that); 'none' when it is not opted out.
 */
export async function removeOptOut(
  q: Queryable,
  clientId: string,
  number: string,
): Promise<'deleted' | 'keyword' | 'none'> {
  const [row] = await q.query<{ deleted: boolean; source: string | null }>(
    `WITH deleted AS (
       DELETE FROM optouts WHERE client_id = $1 AND number = $2 AND source = 'api'
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM deleted) AS deleted,
            (SELECT source FROM optouts WHERE client_id = $1 AND number = $2) AS source`,
    [clientId, number],
  );
  if (row?.deleted) return 'deleted';
  return row?.source === 'keyword' ? 'keyword' : 'none';
}
