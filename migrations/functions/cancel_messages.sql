-- cancel_messages as it is now; its history before this file: migrations 019, 021, 027.
-- A change to it is a diff of this file (migrations/README.md).

-- The owner's cancel of a scheduled send: its error says so (033, issue 30).
CREATE OR REPLACE FUNCTION cancel_messages(p_ids uuid[]) RETURNS SETOF uuid
LANGUAGE sql AS $$
  SELECT moved_id FROM refund_messages(p_ids, 'SCHEDULED', 'CANCELED', 'canceled by the owner')
$$;
