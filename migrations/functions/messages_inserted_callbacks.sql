-- messages_inserted_callbacks as it is now; its history before this file: migrations 006.
-- A change to it is a diff of this file (migrations/README.md).

CREATE OR REPLACE FUNCTION messages_inserted_callbacks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM enqueue_status_callbacks(status_callback_events(
    (SELECT jsonb_agg(to_jsonb(n)) FROM new_rows n
     WHERE EXISTS (SELECT 1 FROM clients c
                   WHERE c.id = n.client_id AND c.status_callback_url IS NOT NULL))));
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER messages_status_callbacks_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION messages_inserted_callbacks();
