-- Status callbacks: a client may name a URL that hears about every state change of its
-- messages, signed with a key of its own. The change itself queues the callback (a job on the
-- durable queue, in the transaction that changed the state), so no event is lost by a crash;
-- each attempt to deliver it is kept for the message's detail.
ALTER TABLE clients
  ADD COLUMN status_callback_url text,
  ADD COLUMN status_callback_signing_key text;

CREATE TABLE message_callbacks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id uuid NOT NULL,
  client_id uuid NOT NULL,
  -- The state the event announced, the attempt's number for that event (1 = first delivery).
  state text NOT NULL,
  attempt integer NOT NULL,
  -- The receiver's HTTP status when it answered; error is null for a 2xx.
  http_status integer,
  error text,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_callbacks_message_idx ON message_callbacks (message_id, id);

-- Queues one callback job per event: [{messageId, clientId, reference, state, deliveryMethod,
-- error, dateUpdated}], attempt 1. Like enqueue_delivery, straight into pg-boss 12's job table
-- with the queue's own settings; the server creates the queue at start.
CREATE FUNCTION enqueue_status_callbacks(p_events jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  q record;
BEGIN
  IF p_events IS NULL OR jsonb_array_length(p_events) = 0 THEN
    RETURN;
  END IF;
  SELECT * INTO q FROM pgboss.queue WHERE name = 'status-callback';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'status callback queue status-callback does not exist';
  END IF;
  EXECUTE format(
    'INSERT INTO pgboss.%I (id, name, data, priority, start_after, expire_seconds,
                            deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff,
                            retry_delay_max, policy, heartbeat_seconds)
     SELECT gen_random_uuid(), $1, e || jsonb_build_object(''attempt'', 1), 0, now(), $2, $3,
            now() + $4 * interval ''1s'', $5, $6, $7, $8, $9, $10
     FROM jsonb_array_elements($11) AS x(e)', q.table_name)
  USING q.name, q.expire_seconds, q.deletion_seconds, q.retention_seconds, q.retry_limit,
        q.retry_delay, q.retry_backoff, q.retry_delay_max, q.policy, q.heartbeat_seconds,
        p_events;
END
$$;

-- The events of the messages a statement created or moved to another state, for clients with a
-- callback URL. Statement-level (transition tables): one query per send batch or receipt batch,
-- and nothing more than a join for clients without a URL. The error is the latest attempt's,
-- for the states that have one.
CREATE FUNCTION status_callback_events(p_rows jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(jsonb_agg(jsonb_build_object(
           'messageId', r.id,
           'clientId', r.client_id,
           'reference', r.reference,
           'state', r.state,
           'deliveryMethod', r.delivery_method,
           'error', CASE WHEN r.state IN ('ACCEPTED', 'SUBMITTED', 'DELIVERED') THEN NULL ELSE
                      (SELECT a.error FROM message_attempts a WHERE a.message_id = r.id
                       ORDER BY a.id DESC LIMIT 1) END,
           'dateUpdated', r.date_updated)), '[]'::jsonb)
  FROM jsonb_to_recordset(p_rows) AS r(id uuid, client_id uuid, reference text, state text,
                                       delivery_method text, date_updated timestamptz)
  WHERE EXISTS (SELECT 1 FROM clients c
                WHERE c.id = r.client_id AND c.status_callback_url IS NOT NULL)
$$;

CREATE FUNCTION messages_inserted_callbacks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM enqueue_status_callbacks(status_callback_events(
    (SELECT jsonb_agg(to_jsonb(n)) FROM new_rows n
     WHERE EXISTS (SELECT 1 FROM clients c
                   WHERE c.id = n.client_id AND c.status_callback_url IS NOT NULL))));
  RETURN NULL;
END
$$;

CREATE FUNCTION messages_updated_callbacks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM enqueue_status_callbacks(status_callback_events(
    (SELECT jsonb_agg(to_jsonb(n)) FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE n.state IS DISTINCT FROM o.state
       AND EXISTS (SELECT 1 FROM clients c
                   WHERE c.id = n.client_id AND c.status_callback_url IS NOT NULL))));
  RETURN NULL;
END
$$;

CREATE TRIGGER messages_status_callbacks_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION messages_inserted_callbacks();
CREATE TRIGGER messages_status_callbacks_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION messages_updated_callbacks();
