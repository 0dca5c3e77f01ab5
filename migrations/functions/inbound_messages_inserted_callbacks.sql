-- inbound_messages_inserted_callbacks: new with issue 32 (inbound callbacks).
-- A change to it is a diff of this file (migrations/README.md).

-- Queues the inbound callback of every inbound message a statement stored for a client with an
-- inbound callback URL, in the inbound write's transaction: a crash after the commit loses no
-- callback, a rollback sends none, and a duplicate the writer skipped (ON CONFLICT DO NOTHING)
-- is not in new_rows, so it is told once. Same queue, same per-client group and the same worker
-- as status callbacks (enqueue_status_callbacks): one machinery, two kinds of event, told apart
-- by the event's type. Statement-level: one query per write, nothing but a join for clients
-- without a URL.
CREATE OR REPLACE FUNCTION inbound_messages_inserted_callbacks() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  events jsonb;
BEGIN
  SELECT jsonb_agg(jsonb_build_object(
           'type', 'inbound',
           'messageId', n.id,
           'clientId', n.client_id,
           'from', n.from_number,
           'to', n.to_number,
           'body', n.body,
           'keyword', n.keyword,
           'dateReceived', n.date_received) ORDER BY n.date_received, n.id)
  INTO events
  FROM new_rows n
  WHERE EXISTS (SELECT 1 FROM clients c
                WHERE c.id = n.client_id AND c.inbound_callback_url IS NOT NULL);
  IF events IS NOT NULL THEN
    PERFORM enqueue_status_callbacks(events);
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER inbound_messages_callbacks_insert AFTER INSERT ON inbound_messages
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION inbound_messages_inserted_callbacks();
