/** The SQL of status callbacks: where a client's go, and each attempt's record. */
import type { Queryable } from '../../db/client.ts';

export interface CallbackTarget {
  url: string;
  signingKey: string;
  /** Whether the message went to the built-in simulator (it is said in every callback). */
  simulated: boolean;
}

/**
 * The client's callback URL and key as they are now (null: it has none any more), and whether
 * the event's message was simulated. The flag is read here rather than carried by the event: the
 * events are made in SQL (migrations/006) before the message is routed, and a message's flag
 * no longer changes once it is final, so a retried final event still sends the same bytes.
 */
export async function findTarget(
  q: Queryable,
  clientId: string,
  messageId: string,
): Promise<CallbackTarget | null> {
  const [row] = await q.query<{
    url: string | null;
    key: string | null;
    simulated: boolean;
  }>(
    `SELECT c.status_callback_url AS url, c.status_callback_signing_key AS key,
            COALESCE(m.simulated, false) AS simulated
     FROM clients c LEFT JOIN messages m ON m.id = $2 AND m.client_id = c.id
     WHERE c.id = $1`,
    [clientId, messageId],
  );
  if (!row?.url || !row.key) return null;
  return { url: row.url, signingKey: row.key, simulated: row.simulated };
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
