import type { PhoneNumber } from '../../../shared/schemas/numbers.ts';
import type { Queryable } from '../../db/client.ts';
import { selectPage, type Page } from '../../db/paging.ts';
import { containsPattern, startsPattern } from '../../db/search.ts';

interface NumberRow {
  number: string;
  client_id: string;
  help_text: string | null;
  date_created: Date | string;
}

const COLUMNS = 'number, client_id, help_text, date_created';

function toNumber(row: NumberRow): PhoneNumber {
  return {
    number: row.number,
    clientId: row.client_id,
    helpText: row.help_text,
    dateCreated: new Date(row.date_created).toISOString(),
  };
}

/**
 * Every number, newest first (ties by number), as admin lists are: `search` matches a number
 * starting with it or help text holding it (case-insensitive); `clientId` one client's.
 */
export async function listNumbers(
  q: Queryable,
  filter: { search: string | undefined; clientId: string | undefined },
  page: { count: number; offset: number },
): Promise<Page<PhoneNumber>> {
  const { search, clientId } = filter;
  return selectPage<NumberRow, PhoneNumber>(
    q,
    {
      columns: COLUMNS,
      from: 'numbers',
      where: `($1::text IS NULL OR number LIKE $1 OR lower(help_text) LIKE $2)
        AND ($3::uuid IS NULL OR client_id = $3)`,
      params: [
        search ? startsPattern(search) : null,
        search ? containsPattern(search) : null,
        clientId ?? null,
      ],
      orderBy: 'date_created DESC, number DESC',
    },
    page,
    toNumber,
  );
}

/** A client's numbers, by number (numbers_client_idx). */
export async function clientNumbers(
  q: Queryable,
  clientId: string,
): Promise<PhoneNumber[]> {
  const rows = await q.query<NumberRow>(
    `SELECT ${COLUMNS} FROM numbers WHERE client_id = $1 ORDER BY number`,
    [clientId],
  );
  return rows.map(toNumber);
}

/** The number as it is, locked for the caller's transaction when it exists. */
export async function lockNumber(
  tx: Queryable,
  number: string,
): Promise<PhoneNumber | undefined> {
  const [row] = await tx.query<NumberRow>(
    `SELECT ${COLUMNS} FROM numbers WHERE number = $1 FOR UPDATE`,
    [number],
  );
  return row ? toNumber(row) : undefined;
}

/**
 * Creates the number for the client. Undefined when the client does not exist, or when the
 * number was created meanwhile by another call (then lock it and update it). The insert's
 * foreign key locks the client row, so a client deleted meanwhile cannot leave a number behind.
 */
export async function insertNumber(
  tx: Queryable,
  input: { number: string; clientId: string; helpText: string | null },
): Promise<PhoneNumber | undefined> {
  const [row] = await tx.query<NumberRow>(
    `INSERT INTO numbers (number, client_id, help_text)
     SELECT $1, id, $3 FROM clients WHERE id = $2
     ON CONFLICT (number) DO NOTHING
     RETURNING ${COLUMNS}`,
    [input.number, input.clientId, input.helpText],
  );
  return row ? toNumber(row) : undefined;
}

/**
 * Gives a number (locked by the caller) to the client with its help text; `dateCreated`
 * restarts when the holder changes. Undefined when the client does not exist.
 */
export async function updateNumber(
  tx: Queryable,
  input: { number: string; clientId: string; helpText: string | null },
): Promise<PhoneNumber | undefined> {
  const [row] = await tx.query<NumberRow>(
    `UPDATE numbers SET
       client_id = clients.id,
       help_text = $3,
       date_created = CASE WHEN numbers.client_id = clients.id
         THEN numbers.date_created ELSE now() END
     FROM clients
     WHERE numbers.number = $1 AND clients.id = $2
     RETURNING numbers.number, numbers.client_id, numbers.help_text, numbers.date_created`,
    [input.number, input.clientId, input.helpText],
  );
  return row ? toNumber(row) : undefined;
}

/** Releases the number; answers what it was, undefined when nobody held it. */
export async function releaseNumber(
  tx: Queryable,
  number: string,
): Promise<PhoneNumber | undefined> {
  const [row] = await tx.query<NumberRow>(
    `DELETE FROM numbers WHERE number = $1 RETURNING ${COLUMNS}`,
    [number],
  );
  return row ? toNumber(row) : undefined;
}
