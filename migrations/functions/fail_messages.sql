-- fail_messages as it is now; its history before this file: migrations 003, 007, 015, 019.
-- A change to it is a diff of this file (migrations/README.md).

-- fail_messages of 015 through refund_messages: ACCEPTED → FAILED, refunded exactly once;
-- returns the ids refunded now.
CREATE OR REPLACE FUNCTION fail_messages(p_ids uuid[]) RETURNS SETOF uuid
LANGUAGE sql AS $$
  SELECT moved_id FROM refund_messages(p_ids, 'ACCEPTED', 'FAILED') WHERE refunded
$$;
