-- enqueue_delivery_jobs as it is now; its history before this file: migrations 021, 024.
-- A change to it is a diff of this file (migrations/README.md).

CREATE OR REPLACE FUNCTION enqueue_delivery_jobs(p_job_ids uuid[], p_message_ids uuid[],
                                                 p_starts timestamptz[])
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  q record;
BEGIN
  IF cardinality(p_message_ids) = 0 THEN
    RETURN;
  END IF;
  SELECT * INTO q FROM pgboss.queue WHERE name = 'sms-delivery';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'delivery queue sms-delivery does not exist';
  END IF;
  EXECUTE format(
    'INSERT INTO pgboss.%I (id, name, data, priority, start_after, expire_seconds,
                            deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff,
                            retry_delay_max, policy, heartbeat_seconds)
     SELECT j.id, $1, jsonb_build_object(''messageId'', j.message_id), 0,
            j.start, $2, $3, j.start + $4 * interval ''1s'',
            $5, $6, $7, $8, $9, $10
     FROM unnest($11::uuid[], $12::uuid[], $13::timestamptz[]) AS j(id, message_id, start)',
    q.table_name)
  USING q.name, q.expire_seconds, q.deletion_seconds, q.retention_seconds,
        q.retry_limit, q.retry_delay, q.retry_backoff, q.retry_delay_max, q.policy,
        q.heartbeat_seconds, p_job_ids, p_message_ids, p_starts;
  PERFORM pg_notify('queue_jobs', q.name);
END
$$;
