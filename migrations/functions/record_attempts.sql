-- record_attempts as it is now; its history before this file: migrations 003, 029.
-- A change to it is a diff of this file (migrations/README.md).

CREATE OR REPLACE FUNCTION record_attempts(p jsonb, p_failed uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_attempts(p, p_failed, '[]'::jsonb);
END
$$;

CREATE OR REPLACE FUNCTION record_attempts(p jsonb, p_failed uuid[], p_receipts jsonb) RETURNS jsonb
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
