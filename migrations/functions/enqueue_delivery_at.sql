-- enqueue_delivery_at as it is now; its history before this file: migrations 019, 021.
-- A change to it is a diff of this file (migrations/README.md).

-- 019's, through the one writer of jobs.
CREATE OR REPLACE FUNCTION enqueue_delivery_at(p_message_ids uuid[], p_start timestamptz)
RETURNS void
LANGUAGE sql AS $$
  SELECT enqueue_delivery_jobs(
    ARRAY(SELECT gen_random_uuid() FROM generate_series(1, cardinality(p_message_ids))),
    p_message_ids, array_fill(p_start, ARRAY[cardinality(p_message_ids)]))
$$;
