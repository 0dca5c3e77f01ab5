-- opt_out_numbers: new with issue 32 (CONTRACT "Two-way messaging": Opt-outs). A change to it is
-- a diff of this file (migrations/README.md).

-- Opts numbers out of clients' messages, the i-th number from the i-th client: the keyword STOP
-- (inbound_messages_keywords, source 'keyword') and PUT …/optouts/{number} (source 'api'). One
-- optouts row per client and number, what every send decides against (send_sms_batch,
-- create_batch, cancel_stopped_messages). A keyword opt-out takes over an api one (the
-- recipient's own word: only the recipient's START ends it then), keeping its date; an api one
-- leaves a keyword one as it is. Every SCHEDULED message of the client to the number becomes
-- CANCELED and is refunded once (refund_messages), a keyword's auto-reply excepted (it is never
-- scheduled anyway). A client deleted meanwhile is skipped. One row per pair: the row as it is
-- now, `taken` when this call opted the number out (a new row, or api → keyword), `canceled` how
-- many scheduled messages it cancelled.
CREATE OR REPLACE FUNCTION opt_out_numbers(p_clients uuid[], p_numbers text[], p_source text)
RETURNS TABLE (client_id uuid, number text, source text, date_created timestamptz,
               taken boolean, canceled integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_taken_clients uuid[];
  v_taken_numbers text[];
  v_ids uuid[];
  v_moved uuid[];
BEGIN
  WITH upserted AS (
    INSERT INTO optouts AS o (client_id, number, source)
    SELECT DISTINCT u.c, u.n, p_source FROM unnest(p_clients, p_numbers) AS u(c, n)
    JOIN clients cl ON cl.id = u.c
    ORDER BY 1, 2
    ON CONFLICT ON CONSTRAINT optouts_pkey DO UPDATE SET source = excluded.source
      WHERE o.source = 'api' AND excluded.source = 'keyword'
    RETURNING o.client_id, o.number
  )
  SELECT COALESCE(array_agg(up.client_id), '{}'), COALESCE(array_agg(up.number), '{}')
  INTO v_taken_clients, v_taken_numbers
  FROM upserted up;

  SELECT COALESCE(array_agg(m.id), '{}') INTO v_ids
  FROM (SELECT DISTINCT u.c, u.n FROM unnest(p_clients, p_numbers) AS u(c, n)) w
  JOIN messages m ON m.client_id = w.c AND m.recipient = w.n
  WHERE m.state = 'SCHEDULED' AND m.reply_to IS NULL;
  IF cardinality(v_ids) > 0 THEN
    SELECT COALESCE(array_agg(r.moved_id), '{}') INTO v_moved
    FROM refund_messages(v_ids, 'SCHEDULED', 'CANCELED') r;
  ELSE
    v_moved := '{}';
  END IF;

  RETURN QUERY
  SELECT o.client_id, o.number, o.source, o.date_created,
         EXISTS (SELECT 1 FROM unnest(v_taken_clients, v_taken_numbers) AS t(c, n)
                 WHERE t.c = o.client_id AND t.n = o.number),
         (SELECT count(*)::integer FROM messages m
          WHERE m.id = ANY(v_moved) AND m.client_id = o.client_id AND m.recipient = o.number)
  FROM optouts o
  JOIN (SELECT DISTINCT u.c, u.n FROM unnest(p_clients, p_numbers) AS u(c, n)) w
    ON o.client_id = w.c AND o.number = w.n;
END
$$;
