-- enqueue_delivery as it is now; its history before this file: migrations 003, 019.
-- A change to it is a diff of this file (migrations/README.md).

-- The relative form is the absolute one from now: one body for both.
CREATE OR REPLACE FUNCTION enqueue_delivery(p_message_ids uuid[], p_delay_seconds integer DEFAULT 0)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM enqueue_delivery_at(p_message_ids, now() + p_delay_seconds * interval '1s');
END
$$;
