-- Throughput at release (issue 20; CONTRACT.md "Destinations: prices, permissions and
-- throughput": "a batch counts as its number of messages at release"). A single send, scheduled
-- or not, is counted in its client's messages a second when it is accepted (accept_sms, 015/019:
-- 429 beyond it), not again at its release. A batch is not counted then: each of its messages
-- (sent at once or scheduled) is counted when the delivery job's load lets it go
-- (release_messages below). A message released in a second whose window is full waits for a
-- later second (deferred: a new job at that second, not failed, not refunded), and every node
-- agrees because the count is the one client_send_windows row, locked by whoever counts.
--
-- The messages that wait book seconds ahead, so each waits once rather than coming back every
-- second (a 10,000-message batch at 5 a second books 2,000 seconds): booked_second is the last
-- second booked, holding `booked` messages, every second before it down to the current one is
-- booked in full. A single send is refused (429) in a second whose bookings leave no room; a
-- released message that was booked takes the room kept for it, one released for the first time
-- only the room the bookings leave. A booked job that runs late, or finds the second taken
-- anyway, books again at the end: it waits longer, it is never lost.

-- When the message was let go into delivery by its release: a scheduled one at its sendAt, a
-- batch's message (sent at once) of a client with a limit when its second had room; null for one
-- sent at once otherwise. Its validity (the engine's give-up) counts from then.
ALTER TABLE messages ADD COLUMN released_at timestamptz;

-- released_booked: how many released messages of window_second were booked ones.
ALTER TABLE client_send_windows
  ADD COLUMN booked_second bigint NOT NULL DEFAULT 0,
  ADD COLUMN booked integer NOT NULL DEFAULT 0,
  ADD COLUMN released_booked integer NOT NULL DEFAULT 0;

-- The sends a booked second still has room for come after its bookings: accept_sms's count (its
-- INSERT … ON CONFLICT DO UPDATE, 015/019) is skipped when the second's bookings fill it, which
-- accept_sms answers as any full second (refusal 'throttled', 429). The release's own updates
-- pass (the transaction-local setting sms.releasing); an update that counts no send (a refused
-- send giving its count back) passes too. A new second starts with no booked one released.
CREATE FUNCTION keep_booked_seconds() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_limit integer;
  v_reserved integer;
BEGIN
  IF current_setting('sms.releasing', true) = 'on' THEN
    RETURN NEW;
  END IF;
  IF NEW.window_second > OLD.window_second THEN
    NEW.released_booked := 0;
  ELSIF NEW.sent <= OLD.sent THEN
    RETURN NEW;
  END IF;
  SELECT c.max_messages_per_second INTO v_limit FROM clients c WHERE c.id = NEW.client_id;
  IF v_limit IS NULL THEN
    RETURN NEW;
  END IF;
  v_reserved := CASE WHEN NEW.booked_second > NEW.window_second THEN v_limit
                     WHEN NEW.booked_second = NEW.window_second THEN NEW.booked
                     ELSE 0 END;
  IF NEW.sent - NEW.released_booked + greatest(v_reserved, NEW.released_booked) > v_limit THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER client_send_windows_keep_booked BEFORE UPDATE ON client_send_windows
  FOR EACH ROW EXECUTE FUNCTION keep_booked_seconds();

-- Delivery jobs with their own ids, each started at its own time, straight into the queue's
-- table (pg-boss 12's schema, as 003 and 019): the one place delivery jobs are written by SQL
-- (defer_delivery of 010 excepted).
CREATE FUNCTION enqueue_delivery_jobs(p_job_ids uuid[], p_message_ids uuid[],
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
END
$$;

-- 019's, through the one writer of jobs.
CREATE OR REPLACE FUNCTION enqueue_delivery_at(p_message_ids uuid[], p_start timestamptz)
RETURNS void
LANGUAGE sql AS $$
  SELECT enqueue_delivery_jobs(
    ARRAY(SELECT gen_random_uuid() FROM generate_series(1, cardinality(p_message_ids))),
    p_message_ids, array_fill(p_start, ARRAY[cardinality(p_message_ids)]))
$$;

-- Lets messages go now: SCHEDULED → ACCEPTED, or a batch's ACCEPTED message marked counted;
-- released_at p_at (a paced release: a time inside the second it was counted in). Re-checks the
-- state, so a message cancelled meanwhile is left as it is. One row per message let go: its
-- state after, its waiting job, and whether it was SCHEDULED.
CREATE FUNCTION release_now(p_ids uuid[], p_at timestamptz)
RETURNS TABLE (message_id uuid, state text, waiting_job uuid, released boolean,
               scheduled boolean)
LANGUAGE sql AS $$
  WITH due AS (
    UPDATE messages m SET state = 'ACCEPTED', released_at = p_at, date_updated = now()
    WHERE m.id = ANY(p_ids) AND m.state = 'SCHEDULED'
    RETURNING m.id, m.waiting_job
  ), counted AS (
    UPDATE messages m SET released_at = p_at
    WHERE m.id = ANY(p_ids) AND m.state = 'ACCEPTED' AND m.released_at IS NULL
      AND m.batch_id IS NOT NULL
    RETURNING m.id, m.waiting_job
  )
  SELECT id, 'ACCEPTED', waiting_job, true, true FROM due
  UNION ALL
  SELECT id, 'ACCEPTED', waiting_job, true, false FROM counted
$$;

-- The release, in the delivery job's load (delivery/repo.ts loadForDelivery) of p_ids, whose
-- jobs are p_jobs: the messages among them that are due (SCHEDULED whose sendAt has come, and a
-- batch's ACCEPTED ones not yet counted whose client has a limit), and whose waiting job, if
-- any, is one of these jobs (a job handed back after a crash finds a newer one in charge and
-- leaves the message to it). Per client, in client order (the window rows locked in one order by
-- every node): single sends (counted when accepted) and the messages of a client without a limit
-- all go; a batch's messages of a client with one, as many as the current second has room for,
-- booked ones first, the others get a new job at a booked second (waiting_job, as
-- defer_delivery of 010). One row per message it changed: state and waiting_job as they are
-- now, released (let go now) and scheduled (it was SCHEDULED). 019's one-argument form stays for
-- nodes of the previous version during a rolling upgrade.
CREATE FUNCTION release_messages(p_ids uuid[], p_jobs uuid[])
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
  FOR c IN
    SELECT m.client_id,
           CASE WHEN m.batch_id IS NOT NULL THEN cl.max_messages_per_second END AS lim,
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
      RETURN QUERY SELECT * FROM release_now(c.booked || c.fresh, now());
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

-- cancel_messages of 019, set-based: cancelling a scheduled batch of 10,000 through
-- refund_messages locked the balance, wrote a ledger row and updated the balance once per message
-- (about 15 s for 10,000 on PostgreSQL here, under load). Now one UPDATE moves the messages
-- SCHEDULED → CANCELED (its WHERE still decides between racing cancels and the release), then
-- per client the balance is locked once, the REFUND rows are written by one INSERT in message
-- order with the running balance after each (ids drawn in that order while the balance is locked,
-- as create_batch does for its SMS rows, so the ledger check holds row by row), and the balance
-- updated once by their sum. A message already refunded is skipped (the unique index of 003
-- stays the backstop); a message of a deleted client is cancelled without a refund. Returns the
-- ids cancelled now.
CREATE OR REPLACE FUNCTION cancel_messages(p_ids uuid[]) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  v_ids uuid[];
  c record;
  bal record;
  v_count integer;
  v_total numeric;
BEGIN
  WITH moved AS (
    UPDATE messages m SET state = 'CANCELED', date_updated = now()
    WHERE m.id = ANY(p_ids) AND m.state = 'SCHEDULED'
    RETURNING m.id
  )
  SELECT COALESCE(array_agg(moved.id), '{}') INTO v_ids FROM moved;
  FOR c IN
    SELECT DISTINCT m.client_id FROM messages m WHERE m.id = ANY(v_ids) ORDER BY m.client_id
  LOOP
    SELECT b.id, b.amount INTO bal FROM balances b WHERE b.client_id = c.client_id FOR UPDATE;
    CONTINUE WHEN NOT FOUND;
    WITH added AS (
      INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason,
                                  message_id, price_per_segment, price_prefix)
      SELECT bal.id, c.client_id, s.price, s.balance_after, 'REFUND', s.id, s.price_per_segment,
             s.price_prefix
      FROM (SELECT m.id, m.price, m.price_per_segment, m.price_prefix,
                   bal.amount + sum(m.price) OVER (ORDER BY m.id) AS balance_after
            FROM messages m
            WHERE m.id = ANY(v_ids) AND m.client_id = c.client_id
              AND NOT EXISTS (SELECT 1 FROM balance_ledger l
                              WHERE l.message_id = m.id AND l.reason = 'REFUND')) s
      ORDER BY s.id
      RETURNING balance_ledger.amount
    )
    SELECT count(*), COALESCE(sum(added.amount), 0) INTO v_count, v_total FROM added;
    IF v_count > 0 THEN
      UPDATE balances SET amount = amount + v_total, date_updated = now() WHERE id = bal.id;
    END IF;
  END LOOP;
  RETURN QUERY SELECT unnest(v_ids);
END
$$;
