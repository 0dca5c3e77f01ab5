-- expire_messages as it is now; its history before this file: migrations 017.
-- A change to it is a diff of this file (migrations/README.md).

-- Expires at most p_limit messages submitted longer than p_validity ago, oldest first, and
-- returns their ids. Several nodes may run it at once: rows another run holds are skipped, and
-- the UPDATE re-checks the state, so a message expires once and a receipt that settles it first
-- wins. The latest SUBMITTED attempt ends EXPIRED with the error too, as settle_messages ends
-- the attempt a receipt decides (the message's error is its latest attempt's). A receipt that
-- arrives later is stored on its part and changes nothing: settle_messages only moves SUBMITTED
-- attempts and messages.
CREATE OR REPLACE FUNCTION expire_messages(p_validity interval, p_limit integer) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY
  WITH due AS (
    SELECT m.id FROM messages m
    WHERE m.state = 'SUBMITTED' AND m.date_updated < now() - p_validity
    ORDER BY m.date_updated
    LIMIT p_limit
    FOR UPDATE SKIP LOCKED
  ), expired AS (
    UPDATE messages m SET state = 'EXPIRED', date_updated = now()
    FROM due WHERE m.id = due.id AND m.state = 'SUBMITTED'
    RETURNING m.id
  ), latest AS (
    SELECT DISTINCT ON (a.message_id) a.id
    FROM message_attempts a JOIN expired e ON e.id = a.message_id
    WHERE a.state = 'SUBMITTED'
    ORDER BY a.message_id, a.id DESC
  ), attempts AS (
    UPDATE message_attempts a
    SET state = 'EXPIRED', error = 'no receipt within the validity period', date_updated = now()
    FROM latest WHERE a.id = latest.id
  )
  SELECT id FROM expired;
END
$$;
