-- record_inbound: the one inbound writer (CONTRACT "Two-way messaging": Inbound from each
-- method). A batch of received messages and parts, as src/server/inbound/inbox.ts group-commits
-- them (already cleaned: storableInbound), element i of each array being input i (its r_ord is
-- i + 1; p_reference null: a whole message). One statement, one transaction: the inbox writes a
-- failed batch again in halves, so one part the database refuses fails alone.
--
-- Each input answers one row:
--   'unrouted'  `to` is a number nobody holds: nothing stored;
--   'duplicate' the provider's id (method, id) is stored already, as a message or a part, or
--               the same part (sender, number, reference, total, part) waits already;
--   'waiting'   a part stored in inbound_parts until the others come;
--   'stored'    a message stored in inbound_messages (a whole one, or the part that completed
--               its message: join_inbound_parts), r_message_id its id.
-- A row with r_ord null is a message also stored by this write: parts of an older message whose
-- reference the sender used again (stored as they were, complete = false).
--
-- Parts of one message are decided by one writer at a time, on every node: each group's
-- advisory lock (class 3201, the hash of its key) is taken, in key order, before anything is
-- written and held to the commit, so the part that completes a message sees all the others
-- (each statement of a plpgsql function reads what committed before it). p_limit is the
-- 10-minute limit of a message's parts: a part with no provider id (SMPP) that arrives again
-- within it after the join is a duplicate; after it, the sender's reference names a new message.

CREATE OR REPLACE FUNCTION record_inbound(
  p_method text[], p_provider_id text[], p_from text[], p_to text[], p_body text[],
  p_encoding text[], p_reference integer[], p_total integer[], p_part integer[],
  p_limit interval
) RETURNS TABLE (r_ord integer, r_outcome text, r_message_id uuid, r_method text)
LANGUAGE plpgsql AS $$
DECLARE
  p record;
  v_old record;
  v_client uuid;
  v_count integer;
  v_join record;
BEGIN
  PERFORM pg_advisory_xact_lock(3201, g.k)
  FROM (
    SELECT DISTINCT hashtext(i.method || ' ' || i.frm || ' ' || i.too || ' ' || i.ref || ' '
      || i.total) AS k
    FROM unnest(p_method, p_from, p_to, p_reference, p_total) AS i(method, frm, too, ref, total)
    WHERE i.ref IS NOT NULL
    ORDER BY 1
  ) g;

  -- Whole messages, in one INSERT (in id order, so that two writers inserting the same ids
  -- wait for each other in one order); its ids are drawn first to tell which rows it wrote.
  RETURN QUERY
  WITH input AS MATERIALIZED (
    SELECT i.n::integer AS n, i.method, i.pid, i.frm, i.too, i.body, i.enc,
      n.client_id, gen_random_uuid() AS id
    FROM unnest(p_method, p_provider_id, p_from, p_to, p_body, p_encoding, p_reference)
      WITH ORDINALITY AS i(method, pid, frm, too, body, enc, ref, n)
    LEFT JOIN numbers n ON n.number = i.too
    WHERE i.ref IS NULL
  ), written AS (
    INSERT INTO inbound_messages AS m (id, client_id, method, provider_message_id, from_number,
      to_number, body, encoding, segments, complete, keyword)
    SELECT i.id, i.client_id, i.method, i.pid, i.frm, i.too, i.body, i.enc, 1, true,
      inbound_keyword(i.body)
    FROM input i WHERE i.client_id IS NOT NULL
    ORDER BY i.method, i.pid, i.n
    ON CONFLICT (method, provider_message_id) WHERE provider_message_id IS NOT NULL DO NOTHING
    RETURNING m.id
  )
  SELECT i.n,
    CASE WHEN i.client_id IS NULL THEN 'unrouted'
         WHEN w.id IS NULL THEN 'duplicate' ELSE 'stored' END,
    w.id, i.method
  FROM input i LEFT JOIN written w ON w.id = i.id;

  -- Parts, one at a time (rare beside whole messages; each reads what the one before wrote).
  FOR p IN
    SELECT i.n::integer AS n, i.method, i.pid, i.frm, i.too, i.body, i.enc, i.ref, i.total,
      i.part
    FROM unnest(p_method, p_provider_id, p_from, p_to, p_body, p_encoding, p_reference,
      p_total, p_part) WITH ORDINALITY AS i(method, pid, frm, too, body, enc, ref, total, part, n)
    WHERE i.ref IS NOT NULL
    ORDER BY i.n
  LOOP
    r_ord := p.n;
    r_method := p.method;
    r_message_id := NULL;
    SELECT n.client_id INTO v_client FROM numbers n WHERE n.number = p.too;
    IF v_client IS NULL THEN
      r_outcome := 'unrouted';
      RETURN NEXT;
      CONTINUE;
    END IF;
    IF p.pid IS NOT NULL AND (
      EXISTS (SELECT 1 FROM inbound_parts ip
              WHERE ip.method = p.method AND ip.provider_message_id = p.pid)
      OR EXISTS (SELECT 1 FROM inbound_messages m
                 WHERE m.method = p.method AND m.provider_message_id = p.pid)) THEN
      r_outcome := 'duplicate';
      RETURN NEXT;
      CONTINUE;
    END IF;

    SELECT ip.message_id, ip.provider_message_id, ip.date_received INTO v_old
    FROM inbound_parts ip
    WHERE ip.method = p.method AND ip.from_number = p.frm AND ip.to_number = p.too
      AND ip.reference = p.ref AND ip.total = p.total AND ip.part_number = p.part;
    IF FOUND THEN
      IF (p.pid IS NULL OR v_old.provider_message_id IS NULL)
         AND (v_old.message_id IS NULL OR v_old.date_received > now() - p_limit) THEN
        -- The same part again: it waits already, or its message was joined a moment ago.
        r_outcome := 'duplicate';
        RETURN NEXT;
        CONTINUE;
      END IF;
      -- The sender's reference names a new message: an older one still waiting is stored as
      -- it is, and the parts kept of a joined one make room.
      IF v_old.message_id IS NULL THEN
        FOR v_join IN SELECT * FROM join_inbound_parts(p.method, p.frm, p.too, p.ref, p.total)
        LOOP
          RETURN QUERY SELECT NULL::integer, v_join.r_outcome, v_join.r_message_id, p.method;
        END LOOP;
      END IF;
      DELETE FROM inbound_parts ip
      WHERE ip.method = p.method AND ip.from_number = p.frm AND ip.to_number = p.too
        AND ip.reference = p.ref AND ip.total = p.total AND ip.message_id IS NOT NULL;
    END IF;

    INSERT INTO inbound_parts (method, from_number, to_number, reference, total, part_number,
      provider_message_id, body, encoding)
    VALUES (p.method, p.frm, p.too, p.ref, p.total, p.part, p.pid, p.body, p.enc);
    SELECT count(*) INTO v_count FROM inbound_parts ip
    WHERE ip.method = p.method AND ip.from_number = p.frm AND ip.to_number = p.too
      AND ip.reference = p.ref AND ip.total = p.total AND ip.message_id IS NULL;
    IF v_count < p.total THEN
      r_outcome := 'waiting';
      RETURN NEXT;
      CONTINUE;
    END IF;
    SELECT * INTO v_join FROM join_inbound_parts(p.method, p.frm, p.too, p.ref, p.total);
    r_outcome := v_join.r_outcome;
    r_message_id := v_join.r_message_id;
    RETURN NEXT;
  END LOOP;
END
$$;
