-- enqueue_status_callbacks as it is now; its history before this file: migrations 006, 011, 024.
-- A change to it is a diff of this file (migrations/README.md).

CREATE OR REPLACE FUNCTION enqueue_status_callbacks(p_events jsonb) RETURNS void
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
                            retry_delay_max, policy, heartbeat_seconds, group_id)
     SELECT gen_random_uuid(), $1, e || jsonb_build_object(''attempt'', 1), 0, now(), $2, $3,
            now() + $4 * interval ''1s'', $5, $6, $7, $8, $9, $10, e->>''clientId''
     FROM jsonb_array_elements($11) AS x(e)', q.table_name)
  USING q.name, q.expire_seconds, q.deletion_seconds, q.retention_seconds, q.retry_limit,
        q.retry_delay, q.retry_backoff, q.retry_delay_max, q.policy, q.heartbeat_seconds,
        p_events;
  PERFORM pg_notify('queue_jobs', q.name);
END
$$;
