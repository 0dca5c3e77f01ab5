/** The SQL of status callbacks: where a client's go, and each attempt's record. */
import type { Queryable } from '../../db/client.ts';

export interface CallbackTarget {
  url: string;
  signingKey: string;
}

/** The client's callback URL and key as they are now (null: it has none any more). */
export async function findTarget(
  q: Queryable,
  clientId: string,
): Promise<CallbackTarget | null> {
  const [row] = await q.query<{ url: string | null; key: string | null }>(
    `SELECT status_callback_url AS url, status_callback_signing_key AS key
     FROM clients WHERE id = $1`,
    [clientId],
  );
  if (!row?.url || !row.key) return null;
  return { url: row.url, signingKey: row.key };
}

export interface CallbackAttemptRow {
  messageId: string;
  clientId: string;
  state: string;
  attempt: number;
  httpStatus: number | null;
  error: string | null;
}

export async function recordAttempts(
  q: Queryable,
  rows: CallbackAttemptRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO message_callbacks (message_id, client_id, state, attempt, http_status, error)
     SELECT "messageId", "clientId", state, attempt, "httpStatus", error
     FROM jsonb_to_recordset($1::jsonb) AS x("messageId" uuid, "clientId" uuid, state text,
                                            attempt integer, "httpStatus" integer, error text)`,
    [JSON.stringify(rows)],
  );
}
