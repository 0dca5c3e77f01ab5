/** The SQL of the Operations screen: the last hour's messages, by method. */
import type { Queryable } from '../../db/client.ts';

/** The first minute of the hour shown (59 minutes before the current one), by the database's clock. */
export async function hourStart(q: Queryable): Promise<Date> {
  const [row] = await q.query<{ since: Date | string }>(
    "SELECT date_trunc('minute', now()) - interval '59 minutes' AS since",
  );
  return new Date(row!.since);
}

/** Messages accepted since `since` by the method of their latest attempt (null: not routed) and state. */
export async function statesByMethod(
  q: Queryable,
  since: Date,
): Promise<{ method: string | null; state: string; count: number }[]> {
  return q.query(
    `SELECT delivery_method AS method, state, count(*)::int AS count
     FROM messages WHERE date_created >= $1 GROUP BY 1, 2`,
    [since],
  );
}

/** Seconds from acceptance to a provider taking the message, p50 and p95, by method. */
export async function latencyByMethod(
  q: Queryable,
  since: Date,
): Promise<{ method: string; p50: number; p95: number }[]> {
  return q.query(
    `SELECT a.method,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a.date_created - m.date_created))::float8 AS p50,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM a.date_created - m.date_created))::float8 AS p95
     FROM messages m JOIN message_attempts a ON a.message_id = m.id
     WHERE m.date_created >= $1 AND a.state NOT IN ('REFUSED', 'FAILED', 'UNAVAILABLE')
     GROUP BY a.method`,
    [since],
  );
}

/** Messages routed to each method per minute since `since` (minute 0 is `since`'s). */
export async function perMinuteByMethod(
  q: Queryable,
  since: Date,
): Promise<{ method: string; minute: number; count: number }[]> {
  return q.query(
    `SELECT delivery_method AS method,
       floor(extract(epoch FROM date_created - $1::timestamptz) / 60)::int AS minute,
       count(*)::int AS count
     FROM messages WHERE date_created >= $1 AND delivery_method IS NOT NULL
     GROUP BY 1, 2`,
    [since],
  );
}

/**
 * Inbound messages stored per method: since `since` (the hour shown) and in the last 24 hours
 * (an index range on date_received: inbound_messages_received_idx).
 */
export async function inboundByMethod(
  q: Queryable,
  since: Date,
): Promise<{ method: string; hour: number; day: number }[]> {
  return q.query(
    `SELECT method, count(*) FILTER (WHERE date_received >= $1)::int AS hour,
       count(*)::int AS day
     FROM inbound_messages WHERE date_received >= now() - interval '24 hours'
     GROUP BY method`,
    [since],
  );
}

/**
 * The number of the latest versioned migration applied (`029` of 029-….sql), or null before
 * any. Rows of other kinds (re-applied function files) have no leading number.
 */
export async function schemaVersion(q: Queryable): Promise<string | null> {
  const [row] = await q.query<{ version: string }>(
    `SELECT substring(name FROM '^([0-9]+)-') AS version FROM schema_migrations
     WHERE name ~ '^[0-9]+-' ORDER BY substring(name FROM '^([0-9]+)-')::int DESC LIMIT 1`,
  );
  return row?.version ?? null;
}
