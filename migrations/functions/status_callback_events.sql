-- status_callback_events as it is now; its history before this file: migrations 006.
-- A change to it is a diff of this file (migrations/README.md).

-- The events of the messages a statement created or moved to another state, for clients with a
-- callback URL. Statement-level (transition tables): one query per send batch or receipt batch,
-- and nothing more than a join for clients without a URL. The error is the latest attempt's,
-- for the states that have one; a CANCELED message's is its own, the reason it was cancelled
-- (033, issue 30).
CREATE OR REPLACE FUNCTION status_callback_events(p_rows jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(jsonb_agg(jsonb_build_object(
           'messageId', r.id,
           'clientId', r.client_id,
           'reference', r.reference,
           'state', r.state,
           'deliveryMethod', r.delivery_method,
           'error', CASE WHEN r.state IN ('ACCEPTED', 'SUBMITTED', 'DELIVERED') THEN NULL
                         WHEN r.state = 'CANCELED' THEN r.error ELSE
                      (SELECT a.error FROM message_attempts a WHERE a.message_id = r.id
                       ORDER BY a.id DESC LIMIT 1) END,
           'dateUpdated', r.date_updated)), '[]'::jsonb)
  FROM jsonb_to_recordset(p_rows) AS r(id uuid, client_id uuid, reference text, state text,
                                       delivery_method text, date_updated timestamptz,
                                       error text)
  WHERE EXISTS (SELECT 1 FROM clients c
                WHERE c.id = r.client_id AND c.status_callback_url IS NOT NULL)
$$;
