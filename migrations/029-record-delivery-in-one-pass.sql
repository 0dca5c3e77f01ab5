-- Delivery's writes in one pass (issue 22): a message whose submit's answer and receipt reach the
-- writer together (an SMSC that answers at once sends the receipt right after submit_sm_resp)
-- was written twice in one transaction: record_attempts moved it ACCEPTED → SUBMITTED, then
-- apply_receipts stored the receipt on its part and settle_messages moved it SUBMITTED →
-- DELIVERED and the attempt SUBMITTED → DELIVERED. Each UPDATE of a message writes a new row
-- version and an entry in each of its indexes (state and date_updated are indexed, so never a HOT
-- update), and each statement fires the status-callback trigger. record_attempts also ran
-- settle_messages on every message it submitted, although only a part that already held a
-- receipt can settle one there, and that UPDATE of no rows fired the trigger too.
--
-- Now record_delivery hands the batch's receipts to record_attempts (a 3-argument form), which:
--   - writes an authenticated receipt of the batch straight into the part row its submit inserts
--     (as apply_receipts would have stored it: the same state, error, date_receipt = now());
--   - decides each submitted message's verdict from its parts as claimed (settle_messages' rule:
--     every part of the latest submitted attempt has a receipt; DELIVERED when all were
--     delivered, else the first other final word), so the attempt is inserted in its final state
--     and the message moves once: ACCEPTED → DELIVERED (or UNDELIVERED, EXPIRED, REJECTED);
--   - returns the receipts it did not take (a part it did not claim, a part whose receipt was
--     dropped as foreign, an unsigned receipt), which go through apply_receipts as before. A
--     receipt for a part it claimed that already held one is left out: apply_receipts keeps the
--     first receipt, so it would change nothing.
-- The rows end as before (same values, the same now()); only the intermediate row versions are
-- gone. The status callbacks stay the same too: messages_updated_callbacks queues, for a message
-- that went from ACCEPTED to a receipt's final state in one statement, the SUBMITTED event it
-- passed through first (its error null, its delivery method and dateUpdated as the final event's,
-- which is what the two statements wrote), then the final event. Nothing else moves ACCEPTED to
-- those states. Two more costs of every batch go too: settle_messages (still what apply_receipts
-- settles with, for receipts of later batches) scanned message_parts and message_attempts whole,
-- and the trigger planned status_callback_events again at every firing even with no event to
-- queue (both below). The 2-argument record_attempts (still called by the 3-argument
-- record_delivery of 003, kept for rolling upgrades) becomes the 3-argument one without
-- receipts: a waiting receipt still settles its message there, in the same UPDATE.

CREATE FUNCTION record_attempts(p jsonb, p_failed uuid[], p_receipts jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  rest jsonb;
BEGIN
  WITH o AS MATERIALIZED (
    SELECT x.ord, nextval('message_attempts_id_seq') AS attempt_id,
           (x.e->>'messageId')::uuid AS message_id, x.e->>'method' AS method,
           x.e->>'state' AS state, x.e->>'error' AS error,
           COALESCE((x.e->>'simulated')::boolean, false) AS simulated,
           ARRAY(SELECT jsonb_array_elements_text(COALESCE(x.e->'providerMessageIds', '[]'))) AS ids,
           ARRAY(SELECT jsonb_array_elements_text(COALESCE(x.e->'route', '[]'))) AS route
    FROM jsonb_array_elements(p) WITH ORDINALITY AS x(e, ord)
  ), r AS (
    -- The batch's authenticated receipts, one per part, as apply_receipts picks them.
    SELECT DISTINCT ON (x.method, x."providerMessageId")
           x.method, x."providerMessageId" AS provider_message_id, x.state, x.error
    FROM jsonb_to_recordset(p_receipts)
         AS x(method text, "providerMessageId" text, state text, error text, unauthenticated jsonb)
    WHERE x.unauthenticated IS NULL
    ORDER BY x.method, x."providerMessageId"
  ), parts AS (
    -- A new part takes its receipt from the batch; a part that was waiting keeps what it holds
    -- (the first receipt, or none when message_parts_drop_foreign_receipt dropped it).
    INSERT INTO message_parts AS mp (method, provider_message_id, message_id, attempt_id, state,
                                     error, date_receipt)
    SELECT o.method, pid, o.message_id, o.attempt_id, r.state, r.error,
           CASE WHEN r.state IS NOT NULL THEN now() END
    FROM o CROSS JOIN LATERAL unnest(o.ids) AS pid
    LEFT JOIN r ON r.method = o.method AND r.provider_message_id = pid
    WHERE o.state = 'SUBMITTED'
    ON CONFLICT (method, provider_message_id) DO UPDATE
      SET message_id = excluded.message_id, attempt_id = excluded.attempt_id
      WHERE mp.message_id IS NULL
    RETURNING mp.method, mp.provider_message_id, mp.attempt_id, mp.state, mp.error,
              mp.date_receipt
  ), latest_submit AS (
    -- settle_messages' latest submitted attempt: this batch's last one for the message.
    SELECT DISTINCT ON (o.message_id) o.message_id, o.attempt_id, cardinality(o.ids) AS parts
    FROM o WHERE o.state = 'SUBMITTED'
    ORDER BY o.message_id, o.attempt_id DESC
  ), verdict AS (
    -- settle_messages' verdict, on the parts as this statement claimed them.
    SELECT l.message_id, l.attempt_id,
           CASE WHEN bool_and(pa.state = 'DELIVERED') THEN 'DELIVERED'
                ELSE (array_agg(pa.state ORDER BY pa.date_receipt)
                        FILTER (WHERE pa.state <> 'DELIVERED'))[1] END AS state,
           (array_agg(pa.error ORDER BY pa.date_receipt)
              FILTER (WHERE pa.state <> 'DELIVERED'))[1] AS error
    FROM latest_submit l JOIN parts pa ON pa.attempt_id = l.attempt_id
    WHERE pa.state IS NOT NULL
    GROUP BY l.message_id, l.attempt_id, l.parts
    HAVING count(*) >= l.parts
  ), attempts AS (
    INSERT INTO message_attempts (id, message_id, method, state, provider_message_id, parts,
                                  error, simulated)
    SELECT o.attempt_id, o.message_id, o.method, COALESCE(v.state, o.state),
           NULLIF(array_to_string(o.ids, ','), ''), cardinality(o.ids),
           CASE WHEN v.state IS NULL THEN o.error ELSE v.error END, o.simulated
    FROM o LEFT JOIN verdict v ON v.attempt_id = o.attempt_id
    ORDER BY o.ord
  ), latest AS (
    SELECT DISTINCT ON (message_id) message_id, method, simulated, route,
           bool_or(state = 'SUBMITTED') OVER (PARTITION BY message_id) AS submitted
    FROM o ORDER BY message_id, ord DESC
  ), updated AS (
    -- As record_attempts (003), then settle_messages: a message SUBMITTED by now (just now or
    -- before) with a verdict takes it.
    UPDATE messages m SET
      delivery_method = l.method,
      simulated = l.simulated,
      route = COALESCE(m.route, NULLIF(l.route, '{}')),
      state = CASE WHEN v.state IS NOT NULL
                        AND (m.state = 'SUBMITTED' OR (l.submitted AND m.state = 'ACCEPTED'))
                     THEN v.state
                   WHEN l.submitted AND m.state = 'ACCEPTED' THEN 'SUBMITTED'
                   ELSE m.state END,
      date_updated = now()
    FROM latest l LEFT JOIN verdict v ON v.message_id = l.message_id
    WHERE m.id = l.message_id AND m.state IN ('ACCEPTED', 'SUBMITTED')
      -- The batch's ids as an array, so the messages are found by their primary key rather than
      -- by a scan of the table (a join with the outcomes alone was planned as one when small).
      AND m.id = ANY (ARRAY(SELECT l2.message_id FROM latest l2))
  )
  SELECT COALESCE(jsonb_agg(x.e ORDER BY x.ord), '[]'::jsonb) INTO rest
  FROM jsonb_array_elements(p_receipts) WITH ORDINALITY AS x(e, ord)
  WHERE NOT EXISTS (SELECT 1 FROM parts pa
                    WHERE pa.method = x.e->>'method'
                      AND pa.provider_message_id = x.e->>'providerMessageId'
                      AND pa.state IS NOT NULL);
  IF array_length(p_failed, 1) > 0 THEN
    PERFORM fail_messages(p_failed);
  END IF;
  RETURN rest;
END
$$;

CREATE OR REPLACE FUNCTION record_attempts(p jsonb, p_failed uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_attempts(p, p_failed, '[]'::jsonb);
END
$$;

-- record_delivery of 010, the receipts first offered to record_attempts (above).
CREATE OR REPLACE FUNCTION record_delivery(p_outcomes jsonb, p_failed uuid[], p_receipts jsonb,
                                           p_deferred jsonb)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  rest jsonb := p_receipts;
BEGIN
  IF jsonb_array_length(p_outcomes) > 0 OR cardinality(p_failed) > 0 THEN
    rest := record_attempts(p_outcomes, p_failed, p_receipts);
  END IF;
  IF jsonb_array_length(p_deferred) > 0 THEN
    PERFORM defer_delivery(p_deferred);
  END IF;
  IF jsonb_array_length(rest) > 0 THEN
    PERFORM apply_receipts(rest);
  END IF;
END
$$;

-- settle_messages of 003 (what apply_receipts settles with), the same rule with a plan that
-- starts from the messages: their latest submitted attempt by message_attempts_message_idx, its
-- parts by message_parts_attempt_idx. The joins of 003 were planned as hash joins over whole
-- tables (message_parts and message_attempts scanned at every receipt batch: 16 ms per batch of
-- about 50 on 5,000 messages under load, growing with the tables).
CREATE OR REPLACE FUNCTION settle_messages(p_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH latest AS (
    SELECT u.message_id, a.id, a.parts
    FROM (SELECT DISTINCT x AS message_id FROM unnest(p_ids) AS x) u
    CROSS JOIN LATERAL (SELECT a.id, a.parts FROM message_attempts a
                        WHERE a.message_id = u.message_id AND a.state = 'SUBMITTED'
                        ORDER BY a.id DESC LIMIT 1) a
  ), verdict AS (
    SELECT l.message_id, l.id AS attempt_id, v.state, v.error
    FROM latest l CROSS JOIN LATERAL (
      SELECT CASE WHEN bool_and(mp.state = 'DELIVERED') THEN 'DELIVERED'
                  ELSE (array_agg(mp.state ORDER BY mp.date_receipt)
                          FILTER (WHERE mp.state <> 'DELIVERED'))[1] END AS state,
             (array_agg(mp.error ORDER BY mp.date_receipt)
                FILTER (WHERE mp.state <> 'DELIVERED'))[1] AS error,
             count(*) AS receipts
      FROM message_parts mp WHERE mp.attempt_id = l.id AND mp.state IS NOT NULL) v
    WHERE v.receipts > 0 AND v.receipts >= l.parts
  ), attempts AS (
    UPDATE message_attempts a SET state = v.state, error = v.error, date_updated = now()
    FROM verdict v WHERE a.id = v.attempt_id AND a.state = 'SUBMITTED'
  )
  UPDATE messages m SET state = v.state, date_updated = now()
  FROM verdict v WHERE m.id = v.message_id AND m.state = 'SUBMITTED';
END
$$;

-- messages_updated_callbacks of 006, with the SUBMITTED event of a message that went from
-- ACCEPTED to a receipt's final state in one statement (record_attempts above), before the
-- final events, as the two statements that used to write it queued them. And when no changed
-- message's client has a callback URL (the usual case) it stops there: status_callback_events, a
-- SQL function, is planned again at every call, which cost about 2 ms per trigger firing under
-- load, three firings per delivery batch, for an empty list.
CREATE OR REPLACE FUNCTION messages_updated_callbacks() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  events jsonb;
BEGIN
  SELECT jsonb_agg(e.event ORDER BY e.pass) INTO events
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  CROSS JOIN LATERAL (
    SELECT 1 AS pass, to_jsonb(n) || '{"state": "SUBMITTED"}'::jsonb AS event
    WHERE o.state = 'ACCEPTED' AND n.state IN ('DELIVERED', 'UNDELIVERED', 'EXPIRED', 'REJECTED')
    UNION ALL
    SELECT 2, to_jsonb(n)) e
  WHERE n.state IS DISTINCT FROM o.state
    AND EXISTS (SELECT 1 FROM clients c
                WHERE c.id = n.client_id AND c.status_callback_url IS NOT NULL);
  IF events IS NOT NULL THEN
    PERFORM enqueue_status_callbacks(status_callback_events(events));
  END IF;
  RETURN NULL;
END
$$;
