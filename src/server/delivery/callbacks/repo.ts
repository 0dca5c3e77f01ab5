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

/**
 * Where the client's inbound callbacks go now (null: it has no inbound callback URL any more),
 * signed with the same key as its status callbacks.
 */
export async function findInboundTarget(
  q: Queryable,
  clientId: string,
): Promise<{ url: string; signingKey: string } | null> {
  const [row] = await q.query<{ url: string | null; key: string | null }>(
    `SELECT inbound_callback_url AS url, status_callback_signing_key AS key
     FROM clients WHERE id = $1`,
    [clientId],
  );
  if (!row?.url || !row.key) return null;
  return { url: row.url, signingKey: row.key };
}

export interface InboundCallbackAttemptRow {
  inboundMessageId: string;
  clientId: string;
  attempt: number;
  httpStatus: number | null;
  error: string | null;
}

export async function recordInboundAttempt(
  q: Queryable,
  row: InboundCallbackAttemptRow,
): Promise<void> {
  await q.query(
    `INSERT INTO inbound_callbacks (inbound_message_id, client_id, attempt, http_status, error)
     VALUES ($1, $2, $3, $4, $5)`,
    [
      row.inboundMessageId,
      row.clientId,
      row.attempt,
      row.httpStatus,
      row.error,
    ],
  );
}
