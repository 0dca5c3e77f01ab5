-- inbound_messages_keywords: new with issue 32 (CONTRACT "Two-way messaging": Opt-outs). A
-- change to it is a diff of this file (migrations/README.md).

-- After each INSERT statement on inbound_messages (the one inbound writer's), in its
-- transaction, so a kill -9 after the inbound write's commit cannot lose an opt-out or a reply:
-- - STOP opts the sender out of the receiving client's messages (opt_out_numbers, source
--   'keyword': the row, and its SCHEDULED messages to the sender CANCELED and refunded);
-- - START deletes the row, whichever its source;
-- - when one statement holds both from one sender to one client, the later one decides;
-- - every keyword (HELP too) queues one `keyword-reply` job straight into the queue's table (as
--   enqueue_status_callbacks does), which any node's worker answers from the same number
--   (src/server/inbound/keyword-replies.ts) through the send's SQL, send_sms_batch.
-- A statement without a keyword costs one look at its own new rows.
CREATE OR REPLACE FUNCTION inbound_messages_keywords() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_ids uuid[];
  v_clients uuid[];
  v_numbers text[];
  v_keywords text[];
  v_taken jsonb := '{}';
  v_events jsonb;
  q record;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows WHERE keyword IS NOT NULL) THEN
    RETURN NULL;
  END IF;

  -- The deciding STOP or START of each sender to each client: the latest. The sender's digits
  -- as a send's recipient has them (CONTRACT "Recipient digits": a leading 00, the
  -- international prefix, dropped), so the row is the one sends to it look up.
  SELECT COALESCE(array_agg(l.id), '{}'), COALESCE(array_agg(l.client_id), '{}'),
         COALESCE(array_agg(l.number), '{}'), COALESCE(array_agg(l.keyword), '{}')
  INTO v_ids, v_clients, v_numbers, v_keywords
  FROM (SELECT DISTINCT ON (n.client_id, s.number) n.id, n.client_id, s.number, n.keyword
        FROM new_rows n
        CROSS JOIN LATERAL (SELECT CASE WHEN n.from_number ~ '^00[1-9]'
                                        THEN substr(n.from_number, 3)
                                        ELSE n.from_number END AS number) s
        WHERE n.keyword IN ('STOP', 'START')
        ORDER BY n.client_id, s.number, n.date_received DESC, n.id DESC) l;

  IF 'STOP' = ANY(v_keywords) THEN
    SELECT COALESCE(jsonb_object_agg(d.id::text, jsonb_build_object('taken', o.taken,
                                                                    'canceled', o.canceled)),
                    '{}')
    INTO v_taken
    FROM opt_out_numbers(ARRAY(SELECT c FROM unnest(v_clients, v_keywords) AS u(c, k)
                               WHERE k = 'STOP'),
                         ARRAY(SELECT n FROM unnest(v_numbers, v_keywords) AS u(n, k)
                               WHERE k = 'STOP'),
                         'keyword') o
    JOIN unnest(v_ids, v_clients, v_numbers) AS d(id, c, n)
      ON d.c = o.client_id AND d.n = o.number;
  END IF;

  IF 'START' = ANY(v_keywords) THEN
    DELETE FROM optouts o
    USING unnest(v_clients, v_numbers, v_keywords) AS u(c, n, k)
    WHERE u.k = 'START' AND o.client_id = u.c AND o.number = u.n;
  END IF;

  -- One reply job per keyword message; the deciding STOP carries what it changed, for the
  -- worker's counts (sms_optouts_total, and sms_messages_total of the CANCELED).
  SELECT jsonb_agg(jsonb_build_object(
           'inboundId', n.id,
           'clientId', n.client_id,
           'keyword', n.keyword,
           'optedOut', COALESCE((v_taken -> n.id::text ->> 'taken')::boolean, false),
           'canceled', COALESCE((v_taken -> n.id::text ->> 'canceled')::integer, 0)))
  INTO v_events
  FROM new_rows n WHERE n.keyword IS NOT NULL;

  SELECT * INTO q FROM pgboss.queue WHERE name = 'keyword-reply';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'keyword reply queue keyword-reply does not exist';
  END IF;
  EXECUTE format(
    'INSERT INTO pgboss.%I (id, name, data, priority, start_after, expire_seconds,
                            deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff,
                            retry_delay_max, policy, heartbeat_seconds)
     SELECT gen_random_uuid(), $1, e, 0, now(), $2, $3, now() + $4 * interval ''1s'', $5, $6,
            $7, $8, $9, $10
     FROM jsonb_array_elements($11) AS x(e)', q.table_name)
  USING q.name, q.expire_seconds, q.deletion_seconds, q.retention_seconds, q.retry_limit,
        q.retry_delay, q.retry_backoff, q.retry_delay_max, q.policy, q.heartbeat_seconds,
        v_events;
  PERFORM pg_notify('queue_jobs', q.name);
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER inbound_messages_keywords_insert AFTER INSERT ON inbound_messages
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION inbound_messages_keywords();
