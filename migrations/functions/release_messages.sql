-- release_messages as it is now; its history before this file: migrations 019, 021.
-- A change to it is a diff of this file (migrations/README.md).

-- The release, by the delivery job of a scheduled message when it runs (at send_at): SCHEDULED →
-- ACCEPTED, and the job goes on to deliver it as any other. A cancelled message is no longer
-- SCHEDULED and stays as it is (its job completes with nothing sent). A message not due yet (a
-- second job queued by hand) is left for its own job at send_at. Returns the ids released now.
-- Every batch of delivery jobs comes through here: without a scheduled message among them there
-- is no UPDATE (whose statement trigger would run for nothing).
CREATE OR REPLACE FUNCTION release_messages(p_ids uuid[]) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM messages WHERE id = ANY(p_ids) AND state = 'SCHEDULED') THEN
    RETURN;
  END IF;
  RETURN QUERY
  WITH released AS (
    UPDATE messages SET state = 'ACCEPTED', date_updated = now()
    WHERE id = ANY(p_ids) AND state = 'SCHEDULED' AND send_at <= now()
    RETURNING id
  )
  SELECT id FROM released;
END
$$;

-- The release, in the delivery job's load (delivery/repo.ts loadForDelivery) of p_ids, whose
-- jobs are p_jobs: the messages among them that are due (SCHEDULED whose sendAt has come, and a
-- batch's ACCEPTED ones not yet counted whose client has a limit), and whose waiting job, if
-- any, is one of these jobs (a job handed back after a crash finds a newer one in charge and
-- leaves the message to it). Per client, in client order (the window rows locked in one order by
-- every node): the messages of a client without a limit all go (a due scheduled send through a
-- new job ranked in its client's lane, fair delivery 031); those of a client with one
-- (a batch's, and scheduled single sends: counted when accepted, and again here, since what the
-- limit bounds is the hand-over to providers, issue 30 finding 4: twelve sends saved up over
-- six seconds went out in one millisecond), as many as the current second has room for, booked
-- ones first, the others get a new job at a booked second (waiting_job, as defer_delivery of
-- 010): one count and one queue of bookings per client, so a batch and single sends due
-- together share the limit. One row per message it changed: state and waiting_job as they are
-- now, released (let go now) and scheduled (it was SCHEDULED). 019's one-argument form stays for
-- nodes of the previous version during a rolling upgrade.
CREATE OR REPLACE FUNCTION release_messages(p_ids uuid[], p_jobs uuid[])
RETURNS TABLE (message_id uuid, state text, waiting_job uuid, released boolean,
               scheduled boolean)
LANGUAGE plpgsql AS $$
DECLARE
  c record;
  w client_send_windows;
  v_reserved integer;
  v_booked_go integer;
  v_fresh_go integer;
  v_moved_booked integer;
  v_moved_fresh integer;
  v_wait uuid[];
  v_first bigint;
  v_pos integer;
  v_ids uuid[];
  v_states text[];
  v_jobs uuid[];
  v_starts timestamptz[];
  v_at timestamptz;
BEGIN
  -- Stopping traffic (issue 30): those that would be refused now are CANCELED and refunded
  -- first (cancel_stopped_messages); the release below no longer finds them.
  RETURN QUERY SELECT s.message_id, 'CANCELED'::text, NULL::uuid, false, false
               FROM cancel_stopped_messages(p_ids, p_jobs) s;
  FOR c IN
    SELECT m.client_id, cl.max_messages_per_second AS lim,
           COALESCE(array_agg(m.id ORDER BY m.date_created, m.id)
                      FILTER (WHERE m.waiting_job IS NOT NULL), '{}') AS booked,
           COALESCE(array_agg(m.id ORDER BY m.date_created, m.id)
                      FILTER (WHERE m.waiting_job IS NULL), '{}') AS fresh
    FROM messages m LEFT JOIN clients cl ON cl.id = m.client_id
    WHERE m.id = ANY(p_ids)
      AND (m.waiting_job IS NULL OR m.waiting_job = ANY(p_jobs))
      AND ((m.state = 'SCHEDULED' AND m.send_at <= now())
           OR (m.state = 'ACCEPTED' AND m.batch_id IS NOT NULL AND m.released_at IS NULL
               AND cl.max_messages_per_second IS NOT NULL))
    GROUP BY 1, 2
    ORDER BY 1, 2
  LOOP
    IF c.lim IS NULL THEN
      -- Those whose ranked job this is go now.
      RETURN QUERY SELECT * FROM release_now(c.booked, now());
      -- Fair delivery (031): the others are due scheduled sends whose job only releases them.
      -- Delivering them here would put a client's whole scheduled backlog ahead of every lane
      -- (their jobs were queued before anything waiting now); each gets a job ranked in its
      -- client's lane now instead (enqueue_delivery_jobs), starting at once, and this job
      -- completes with nothing sent. Still SCHEDULED until that job releases it.
      IF cardinality(c.fresh) > 0 THEN
        WITH d AS (
          SELECT t.id, gen_random_uuid() AS job_id FROM unnest(c.fresh) AS t(id)
        ), waiting AS (
          -- A second job of the same message racing this one finds it held and leaves it.
          UPDATE messages m SET waiting_job = d.job_id
          FROM d WHERE m.id = d.id AND m.state = 'SCHEDULED' AND m.waiting_job IS NULL
          RETURNING m.id, d.job_id
        )
        SELECT COALESCE(array_agg(wt.id), '{}'), COALESCE(array_agg(wt.job_id), '{}')
        INTO v_ids, v_jobs
        FROM waiting wt;
        PERFORM enqueue_delivery_jobs(v_jobs, v_ids,
                                      array_fill(now(), ARRAY[cardinality(v_ids)]));
        RETURN QUERY SELECT t.id, 'SCHEDULED'::text, t.job, false, true
                     FROM unnest(v_ids, v_jobs) AS t(id, job);
      END IF;
      CONTINUE;
    END IF;

    PERFORM set_config('sms.releasing', 'on', true);
    -- The clock is read once the row is locked, as accept_sms does.
    INSERT INTO client_send_windows AS cw (client_id, window_second, sent)
    VALUES (c.client_id, floor(extract(epoch FROM clock_timestamp())), 0)
    ON CONFLICT (client_id) DO UPDATE
      SET sent = CASE WHEN cw.window_second >= floor(extract(epoch FROM clock_timestamp()))
                      THEN cw.sent ELSE 0 END,
          released_booked = CASE WHEN cw.window_second >= floor(extract(epoch FROM
                                                                   clock_timestamp()))
                                 THEN cw.released_booked ELSE 0 END,
          window_second = greatest(cw.window_second,
                                   floor(extract(epoch FROM clock_timestamp())))
    RETURNING * INTO w;

    v_at := least(greatest(clock_timestamp(), to_timestamp(w.window_second)),
                  to_timestamp(w.window_second + 1) - interval '1 microsecond');
    v_reserved := CASE WHEN w.booked_second > w.window_second THEN c.lim
                       WHEN w.booked_second = w.window_second THEN w.booked
                       ELSE 0 END;
    v_booked_go := least(cardinality(c.booked), greatest(0, c.lim - w.sent));
    v_moved_booked := 0;
    IF v_booked_go > 0 THEN
      RETURN QUERY SELECT * FROM release_now(c.booked[1:v_booked_go], v_at);
      GET DIAGNOSTICS v_moved_booked = ROW_COUNT;
    END IF;
    v_fresh_go := least(cardinality(c.fresh),
                        greatest(0, c.lim - (w.sent - w.released_booked)
                                    - greatest(v_reserved, w.released_booked + v_moved_booked)));
    v_moved_fresh := 0;
    IF v_fresh_go > 0 THEN
      RETURN QUERY SELECT * FROM release_now(c.fresh[1:v_fresh_go], v_at);
      GET DIAGNOSTICS v_moved_fresh = ROW_COUNT;
    END IF;

    -- The rest book seconds after the last booked one (or the next second): the k-th of them
    -- (from 0) waits for second v_first + (v_pos + k) / lim.
    v_wait := c.booked[v_booked_go + 1:] || c.fresh[v_fresh_go + 1:];
    IF w.booked_second > w.window_second THEN
      v_first := w.booked_second;
      v_pos := w.booked;
    ELSE
      v_first := w.window_second + 1;
      v_pos := 0;
    END IF;
    IF cardinality(v_wait) > 0 THEN
      WITH d AS (
        SELECT t.id, gen_random_uuid() AS job_id,
               to_timestamp(v_first + (v_pos + t.k - 1) / c.lim) AS start
        FROM unnest(v_wait) WITH ORDINALITY AS t(id, k)
      ), waiting AS (
        UPDATE messages m SET waiting_job = d.job_id
        FROM d
        WHERE m.id = d.id
          AND (m.state = 'SCHEDULED' OR (m.state = 'ACCEPTED' AND m.released_at IS NULL))
        RETURNING m.id, m.state, d.job_id, d.start
      )
      SELECT COALESCE(array_agg(wt.id), '{}'), COALESCE(array_agg(wt.state), '{}'),
             COALESCE(array_agg(wt.job_id), '{}'), COALESCE(array_agg(wt.start), '{}')
      INTO v_ids, v_states, v_jobs, v_starts
      FROM waiting wt;
      PERFORM enqueue_delivery_jobs(v_jobs, v_ids, v_starts);
      RETURN QUERY SELECT t.id, t.state, t.job, false, t.state = 'SCHEDULED'
                   FROM unnest(v_ids, v_states, v_jobs) AS t(id, state, job);
    END IF;

    UPDATE client_send_windows
    SET sent = sent + v_moved_booked + v_moved_fresh,
        released_booked = released_booked + v_moved_booked,
        booked_second = CASE WHEN cardinality(v_wait) > 0
                             THEN v_first + (v_pos + cardinality(v_wait) - 1) / c.lim
                             ELSE booked_second END,
        booked = CASE WHEN cardinality(v_wait) > 0
                      THEN (v_pos + cardinality(v_wait) - 1) % c.lim + 1
                      ELSE booked END
    WHERE client_id = c.client_id;
    PERFORM set_config('sms.releasing', 'off', true);
  END LOOP;
END
$$;
