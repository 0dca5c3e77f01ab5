-- messages_updated_callbacks as it is now; its history before this file: migrations 006, 029.
-- A change to it is a diff of this file (migrations/README.md).

-- messages_updated_callbacks of 006, with the SUBMITTED event of a message that went from
-- ACCEPTED to a receipt's final state in one statement (record_attempts.sql), before the
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

CREATE OR REPLACE TRIGGER messages_status_callbacks_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION messages_updated_callbacks();
