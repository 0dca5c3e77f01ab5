-- settle_messages as it is now; its history before this file: migrations 003, 029.
-- A change to it is a diff of this file (migrations/README.md).

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
