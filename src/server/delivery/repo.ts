/** The SQL of delivery: what workers read of a batch of messages, and the functions of 003. */
import type { Queryable } from '../db/client.ts';
import { DELIVERY_QUEUE } from './queue.ts';
import type { Split } from './routing.ts';
import type { DeliveryMethod, Encoding, FinalState } from './types.ts';

export interface DeliveryRow {
  id: string;
  /** Its client: the lane it takes turns in (fair delivery). */
  clientId: string;
  state: string;
  sender: string;
  recipient: string;
  body: string;
  encoding: Encoding;
  route: DeliveryMethod[] | null;
  splits: Split[];
  /**
   * Earlier attempts' outcomes: REFUSED and FAILED decide which methods remain, UNAVAILABLE
   * since when one has been out of reach. `ageMs`: how long ago, by the database's clock.
   */
  attempts: { method: DeliveryMethod; state: string; ageMs: number }[];
  /**
   * Since the message was accepted (one released by the load: since its release, a scheduled one
   * since its sendAt), by the database's clock.
   */
  ageMs: number;
  /** A scheduled message this load released: SCHEDULED → ACCEPTED now. */
  released: boolean;
  /** Cancelled and refunded by this load's re-check (cancel_stopped_messages). */
  stopped: boolean;
  /** The job that holds the message waiting, if any (migrations/010). */
  waitingJob: string | null;
}

/**
 * The messages of a batch of jobs (`jobIds[i]` the job of `ids[i]`) with their client's drawable
 * splits and earlier attempts. The same statement releases them first (release_messages,
 * migrations/functions/release_messages.sql): a scheduled message whose sendAt has come, SCHEDULED → ACCEPTED, and a
 * batch's message, counted in its window when its client has a messages-a-second limit (a
 * scheduled one too, single sends included); one the
 * current second has no room for gets a new job at a later second and comes back as it was with
 * that job waiting (so this job completes with nothing sent). A cancelled one stays CANCELED and
 * its job completes with nothing sent. Before releasing, it cancels and refunds those that would
 * be refused now (client deleted, destination blocked or outside its allowedPrefixes:
 * cancel_stopped_messages, CONTRACT "Stopping traffic"): they come back CANCELED. The statement reads the rows as they were before its own
 * updates, hence what the release changed is taken from its answer.
 */
export async function loadForDelivery(
  q: Queryable,
  ids: string[],
  jobIds: string[] | null = null,
): Promise<DeliveryRow[]> {
  return q.query<DeliveryRow>(
    `WITH released AS (SELECT * FROM release_messages($1::uuid[], $2::uuid[]))
     SELECT m.id, m.client_id AS "clientId", COALESCE(r.state, m.state) AS state,
       COALESCE(r.released AND r.scheduled, false) AS released,
       COALESCE(r.state = 'CANCELED', false) AS stopped,
       m.sender, m.recipient, m.body, m.encoding, m.route,
       COALESCE(r.waiting_job, m.waiting_job) AS "waitingJob",
       CASE WHEN r.released THEN 0::float8 ELSE (extract(epoch FROM now()
         - COALESCE(m.released_at, m.send_at, m.date_created)) * 1000)::float8 END AS "ageMs",
       COALESCE((SELECT jsonb_agg(jsonb_build_object('method', s.delivery_method, 'weight', s.weight))
                 FROM route_splits s WHERE s.client_id = m.client_id AND s.weight > 0), '[]') AS splits,
       COALESCE((SELECT jsonb_agg(jsonb_build_object('method', a.method, 'state', a.state,
                   'ageMs', extract(epoch FROM now() - a.date_created) * 1000) ORDER BY a.id)
                 FROM message_attempts a WHERE a.message_id = m.id), '[]') AS attempts
     FROM messages m LEFT JOIN released r ON r.message_id = m.id WHERE m.id = ANY($1::uuid[])`,
    [ids, jobIds],
  );
}

export type Outcome =
  | {
      messageId: string;
      method: DeliveryMethod;
      /** Fixed on the message at its first attempt. */
      route: DeliveryMethod[];
      state: 'SUBMITTED' | 'REFUSED' | 'FAILED' | 'UNAVAILABLE';
      providerMessageIds?: string[];
      error?: string | null;
      simulated: boolean;
    }
  /** No method took it: FAILED and refunded. */
  | { messageId: string; fail: true };

/** A message given back to the queue for later, without spending a try (migrations/010). */
export interface Deferral {
  messageId: string;
  delaySeconds: number;
  /** Fixed on the message if it was not yet, so the next run keeps the same methods. */
  route: DeliveryMethod[];
}

/**
 * Records a batch of outcomes (attempts, then the messages no method took), deferrals and
 * receipts in one statement, so one transaction.
 */
export async function recordDelivery(
  q: Queryable,
  outcomes: Outcome[],
  receipts: ReceiptRow[],
  deferred: Deferral[] = [],
): Promise<string> {
  const attempts = outcomes.filter((o) => !('fail' in o));
  const failed = outcomes.filter((o) => 'fail' in o).map((o) => o.messageId);
  const rows = await q.query<{ at: string }>(
    'SELECT now()::text AS at FROM record_delivery($1::jsonb, $2::uuid[], $3::jsonb, $4::jsonb)',
    [
      JSON.stringify(attempts),
      failed,
      JSON.stringify(receipts),
      JSON.stringify(deferred),
    ],
  );
  return rows[0]!.at;
}

/**
 * How many messages one recordDelivery moved into each final state (FAILED included), for the
 * metrics: each message once, however many of its parts' receipts, repeated receipts or outcomes
 * the batch held. `at` is what that write answered, its transaction's now(), which every message
 * it moved has as date_updated; a final message is never updated again, so asking after the
 * commit tells them apart from those already final, or settled by another node's write.
 */
export async function movedToFinal(
  q: Queryable,
  at: string,
  outcomes: Outcome[],
  receipts: ReceiptRow[],
): Promise<{ state: string; count: number }[]> {
  const parts = receipts.map((r) => ({
    method: r.method,
    providerMessageId: r.providerMessageId,
  }));
  return q.query<{ state: string; count: number }>(
    // The candidates first (each receipt's part by its primary key), then the messages by
    // theirs: an OR of `id = ANY` and a sub-select, or a join with the receipts, was planned as
    // a scan of the whole table after every write (90 ms at 220,000 messages: accepting fell to
    // 46 % after a 200,000-message pre-fill; tests/api/db/delivery-query-plans.test.ts).
    `SELECT m.state, count(*)::int AS count FROM messages m
     WHERE m.id = ANY (ARRAY(
             SELECT unnest($2::uuid[])
             UNION
             SELECT (SELECT mp.message_id FROM message_parts mp
                     WHERE mp.method = r.method
                       AND mp.provider_message_id = r."providerMessageId")
             FROM jsonb_to_recordset($3::jsonb) AS r(method text, "providerMessageId" text)))
       AND m.date_updated = $1::timestamptz AND m.state NOT IN ('ACCEPTED', 'SUBMITTED')
     GROUP BY m.state`,
    [at, [...new Set(outcomes.map((o) => o.messageId))], JSON.stringify(parts)],
  );
}

export interface ReceiptRow {
  method: DeliveryMethod;
  providerMessageId: string;
  state: FinalState;
  error: string | null;
  /** An unsigned receipt: it may only decide the message clientRef names (see Receipt). */
  unauthenticated?: { clientRef: string };
}

/** FAILED and refunded, each exactly once whoever else tries too; returns the ids refunded now. */
export async function failMessages(
  q: Queryable,
  ids: string[],
): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    'SELECT id FROM fail_messages($1::uuid[]) AS id',
    [ids],
  );
  return rows.map((r) => r.id);
}

/**
 * A worker fetched jobs up to lane round `round` (fair delivery: a job's priority is minus its
 * round, migrations/031): new messages of idle clients are ranked after it
 * (advance_delivery_round). Its own statement: the clock's one row is locked only this long.
 */
export async function advanceDeliveryRound(
  q: Queryable,
  round: number,
): Promise<void> {
  await q.query('SELECT advance_delivery_round($1::bigint)', [round]);
}

/** Queues delivery jobs again (tests of duplicate jobs; an operator's manual re-drive). */
export async function enqueue(q: Queryable, ids: string[]): Promise<void> {
  await q.query('SELECT enqueue_delivery($1::uuid[])', [ids]);
}

/**
 * Housekeeping: idempotency keys are answered for 24 hours; a receipt whose id no submit of ours
 * ever claimed (another system's message, a typo of the SMSC) is kept a week for inspection.
 */
export async function deleteExpired(q: Queryable): Promise<void> {
  await q.query(
    "DELETE FROM idempotency_keys WHERE date_created < now() - interval '24 hours'",
  );
  await q.query(
    "DELETE FROM message_parts WHERE message_id IS NULL AND date_created < now() - interval '7 days'",
  );
}

/** Messages expired at most per expireMessages call, so a backlog does not hold locks long. */
export const EXPIRE_BATCH = 1000;

/**
 * SUBMITTED longer than `validitySeconds` ago with no final receipt: EXPIRED, not refunded
 * (migrations/functions/expire_messages.sql), at most EXPIRE_BATCH of them; returns the ids expired now.
 */
export async function expireMessages(
  q: Queryable,
  validitySeconds: number,
): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    "SELECT id FROM expire_messages($1 * interval '1 second', $2) AS id",
    [validitySeconds, EXPIRE_BATCH],
  );
  return rows.map((r) => r.id);
}

/**
 * Delivery jobs waiting for a worker: queued or to be retried, due or not (sms_queue_depth). The
 * job of a message still SCHEDULED waits for its sendAt, not for a worker: it is not counted.
 */
export async function queueDepth(q: Queryable): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pgboss.job j
     WHERE j.name = $1 AND j.state IN ('created', 'retry')
       AND NOT EXISTS (SELECT 1 FROM messages m
                       WHERE m.id = (j.data->>'messageId')::uuid AND m.state = 'SCHEDULED')`,
    [DELIVERY_QUEUE],
  );
  return rows[0]?.n ?? 0;
}

/** Jobs of the delivery queue marked active (pg-boss 12's job table). */
export async function activeJobIds(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    "SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active'",
    [DELIVERY_QUEUE],
  );
  return rows.map((r) => r.id);
}
