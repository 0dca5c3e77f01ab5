-- Delivery faults (issue 15): a message whose method cannot be reached (SMPP bind down) or is
-- held by our own flow control goes back to the queue for later without spending a try.

-- The job that holds a message waiting (null when none). A job handed back after a crash that
-- is not this one finds a newer job in charge and does nothing, so a message never has two
-- jobs submitting it.
ALTER TABLE messages ADD COLUMN waiting_job uuid;

-- Queues messages again after a delay: [{messageId, delaySeconds, route}]. Each gets a new job
-- (retry count 0: waiting never uses up the queue's retry budget) recorded on the message, and
-- its route is fixed if it was not yet. Only ACCEPTED messages; written against pg-boss 12's
-- schema, as enqueue_delivery in 003.
CREATE OR REPLACE FUNCTION defer_delivery(p jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  q record;
BEGIN
  IF jsonb_array_length(p) = 0 THEN
    RETURN;
  END IF;
  SELECT * INTO q FROM pgboss.queue WHERE name = 'sms-delivery';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'delivery queue sms-delivery does not exist';
  END IF;
  EXECUTE format(
    'WITH d AS (
       SELECT gen_random_uuid() AS job_id, (e->>''messageId'')::uuid AS message_id,
              (e->>''delaySeconds'')::numeric AS delay,
              ARRAY(SELECT jsonb_array_elements_text(COALESCE(e->''route'', ''[]''))) AS route
       FROM jsonb_array_elements($1) AS e
     ), waiting AS (
       UPDATE messages m SET waiting_job = d.job_id,
                             route = COALESCE(m.route, NULLIF(d.route, ''{}''))
       FROM d WHERE m.id = d.message_id AND m.state = ''ACCEPTED''
       RETURNING d.job_id, d.message_id, d.delay
     )
     INSERT INTO pgboss.%I (id, name, data, priority, start_after, expire_seconds,
                            deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff,
                            retry_delay_max, policy, heartbeat_seconds)
     SELECT w.job_id, $2, jsonb_build_object(''messageId'', w.message_id), 0,
            now() + w.delay * interval ''1s'', $3, $4,
            now() + w.delay * interval ''1s'' + $5 * interval ''1s'',
            $6, $7, $8, $9, $10, $11
     FROM waiting w', q.table_name)
  USING p, q.name, q.expire_seconds, q.deletion_seconds, q.retention_seconds,
        q.retry_limit, q.retry_delay, q.retry_backoff, q.retry_delay_max, q.policy,
        q.heartbeat_seconds;
END
$$;

-- record_delivery of 003 with the deferred messages, in the same one transaction as the
-- attempts (an UNAVAILABLE attempt says why a message waits). The 3-argument form stays for
-- nodes of the previous version during a rolling upgrade.
CREATE OR REPLACE FUNCTION record_delivery(p_outcomes jsonb, p_failed uuid[], p_receipts jsonb,
                                           p_deferred jsonb)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_array_length(p_outcomes) > 0 OR cardinality(p_failed) > 0 THEN
    PERFORM record_attempts(p_outcomes, p_failed);
  END IF;
  IF jsonb_array_length(p_deferred) > 0 THEN
    PERFORM defer_delivery(p_deferred);
  END IF;
  IF jsonb_array_length(p_receipts) > 0 THEN
    PERFORM apply_receipts(p_receipts);
  END IF;
END
$$;
