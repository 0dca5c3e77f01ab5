-- enqueue_delivery_jobs as it is now; its history before this file: migrations 021, 024.
-- A change to it is a diff of this file (migrations/README.md).

-- Fair delivery (031): each job's pg-boss priority is its place in its client's lane. Per client
-- (in client order: the lane rows are locked in one order by every transaction), the jobs take
-- the lane's next slots, starting no earlier than the first slot of the round after the highest
-- one a worker has taken (delivery_clock), so an idle client's message lands in the next round
-- and a client with a backlog continues after it; priority = -(slot / quantum). The fetch's
-- ORDER BY priority DESC, created_on then serves the lanes in turn, a quantum each. Not ranked:
-- the first job of a scheduled message (still SCHEDULED, held by no job): it only releases the
-- message at its sendAt, and release_messages ranks the job that delivers it then, when the
-- other lanes are known; it takes priority 1, ahead of every lane, so releases are never late.
CREATE OR REPLACE FUNCTION enqueue_delivery_jobs(p_job_ids uuid[], p_message_ids uuid[],
                                                 p_starts timestamptz[])
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  q record;
  -- Messages of one lane per round: a newcomer waits behind at most this many of each other
  -- lane's jobs; the rounds (and so the priorities) grow this many times slower than messages.
  c_quantum CONSTANT integer := 10;
  v_first bigint;
  v_priorities integer[];
BEGIN
  IF cardinality(p_message_ids) = 0 THEN
    RETURN;
  END IF;
  SELECT * INTO q FROM pgboss.queue WHERE name = 'sms-delivery';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'delivery queue sms-delivery does not exist';
  END IF;
  SELECT (served_round + 1) * c_quantum INTO v_first FROM delivery_clock;
  v_first := COALESCE(v_first, c_quantum);

  WITH j AS (
    SELECT u.k, m.client_id,
           COALESCE(m.state = 'SCHEDULED' AND m.waiting_job IS DISTINCT FROM u.job_id,
                    false) AS releasing
    FROM unnest(p_job_ids, p_message_ids) WITH ORDINALITY AS u(job_id, message_id, k)
    LEFT JOIN messages m ON m.id = u.message_id
  ), ranked AS (
    SELECT j.k, j.client_id,
           row_number() OVER (PARTITION BY j.client_id ORDER BY j.k) - 1 AS pos,
           count(*) OVER (PARTITION BY j.client_id) AS n
    FROM j WHERE NOT j.releasing AND j.client_id IS NOT NULL
  ), lanes AS (
    -- EXCLUDED.next_slot - v_first is the lane's number of new jobs.
    INSERT INTO delivery_lanes AS l (client_id, next_slot)
    SELECT r.client_id, v_first + count(*) FROM ranked r GROUP BY r.client_id
    ORDER BY r.client_id
    ON CONFLICT (client_id) DO UPDATE
      SET next_slot = greatest(l.next_slot, v_first) + (EXCLUDED.next_slot - v_first)
    RETURNING l.client_id, l.next_slot
  )
  SELECT array_agg(CASE WHEN j.releasing THEN 1
                        WHEN r.k IS NULL THEN 0
                        -- After 2^31 rounds (2 × 10^10 messages of one lane) the order saturates.
                        ELSE greatest(-((ln.next_slot - r.n + r.pos) / c_quantum),
                                      -2147483647)::integer END
                   ORDER BY j.k)
  INTO v_priorities
  FROM j LEFT JOIN ranked r ON r.k = j.k LEFT JOIN lanes ln ON ln.client_id = r.client_id;

  EXECUTE format(
    'INSERT INTO pgboss.%I (id, name, data, priority, start_after, expire_seconds,
                            deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff,
                            retry_delay_max, policy, heartbeat_seconds)
     SELECT j.id, $1, jsonb_build_object(''messageId'', j.message_id), j.priority,
            j.start, $2, $3, j.start + $4 * interval ''1s'',
            $5, $6, $7, $8, $9, $10
     FROM unnest($11::uuid[], $12::uuid[], $13::timestamptz[], $14::integer[])
          AS j(id, message_id, start, priority)',
    q.table_name)
  USING q.name, q.expire_seconds, q.deletion_seconds, q.retention_seconds,
        q.retry_limit, q.retry_delay, q.retry_backoff, q.retry_delay_max, q.policy,
        q.heartbeat_seconds, p_job_ids, p_message_ids, p_starts, v_priorities;
  PERFORM pg_notify('queue_jobs', q.name);
END
$$;
