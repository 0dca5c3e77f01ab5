-- An idle node sleeps instead of polling its queues every half second (issue 22): the two
-- functions that write jobs by SQL tell every node at their commit, with one NOTIFY per call
-- (not per job) on channel queue_jobs, payload the queue's name. A node's workers wake on it
-- (src/server/delivery/alarm.ts); a job that starts later is found by the node's look at the
-- queue that follows. Only a latency hint: a node that misses it still finds the job at its next
-- look. The bodies are 021's and 011's, with the NOTIFY added.

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
