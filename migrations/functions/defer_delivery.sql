-- defer_delivery as it is now; its history before this file: migrations 010, 026.
-- A change to it is a diff of this file (migrations/README.md).

-- defer_delivery (010) wrote its jobs with its own copy of the pg-boss insert. It now hands
-- them to enqueue_delivery_jobs (021), the one place delivery jobs are written by SQL, so a
-- change of pg-boss's job table (a column, a queue's own table) is made in one function.
-- What it does is unchanged: each waiting message that is still ACCEPTED gets a new job after
-- its delay (messages.waiting_job names it) and keeps the route it was first given.
CREATE OR REPLACE FUNCTION defer_delivery(p jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  job_ids uuid[];
  message_ids uuid[];
  starts timestamptz[];
BEGIN
  IF jsonb_array_length(p) = 0 THEN
    RETURN;
  END IF;
  WITH d AS (
    SELECT gen_random_uuid() AS job_id, (e->>'messageId')::uuid AS message_id,
           (e->>'delaySeconds')::numeric AS delay,
           ARRAY(SELECT jsonb_array_elements_text(COALESCE(e->'route', '[]'))) AS route
    FROM jsonb_array_elements(p) AS e
  ), waiting AS (
    UPDATE messages m SET waiting_job = d.job_id,
                          route = COALESCE(m.route, NULLIF(d.route, '{}'))
    FROM d WHERE m.id = d.message_id AND m.state = 'ACCEPTED'
    RETURNING d.job_id, d.message_id, d.delay
  )
  SELECT COALESCE(array_agg(w.job_id), '{}'), COALESCE(array_agg(w.message_id), '{}'),
         COALESCE(array_agg(now() + w.delay * interval '1s'), '{}')
  INTO job_ids, message_ids, starts
  FROM waiting w;
  PERFORM enqueue_delivery_jobs(job_ids, message_ids, starts);
END
$$;
