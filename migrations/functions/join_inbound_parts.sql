-- join_inbound_parts: the waiting parts of one concatenated inbound message → one row of
-- inbound_messages, the bodies in part order (CONTRACT "Two-way messaging": Inbound). Complete
-- when every part is there; called with fewer by the 10-minute limit (store_overdue_inbound) or
-- when the sender's reference starts another message (record_inbound): then `complete` is
-- false and `segments` counts the parts received. The parts stay, marked with the message, so
-- that one delivered again is a duplicate (store_overdue_inbound removes them a day later).
--
-- The caller holds the group's advisory lock (record_inbound, store_overdue_inbound): no other
-- writer adds or joins a part of it meanwhile. Routed to the number's holder now; a number
-- nobody holds any more drops the parts ('unrouted'). Answers nothing when no part waits (an
-- other sweep joined them first).

CREATE OR REPLACE FUNCTION join_inbound_parts(
  p_method text, p_from text, p_to text, p_reference integer, p_total integer
) RETURNS TABLE (r_outcome text, r_message_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_client uuid;
  v_id uuid;
  v_pid text;
  v_count integer;
BEGIN
  SELECT count(*), (array_agg(p.provider_message_id ORDER BY p.part_number))[1]
    INTO v_count, v_pid
  FROM inbound_parts p
  WHERE p.method = p_method AND p.from_number = p_from AND p.to_number = p_to
    AND p.reference = p_reference AND p.total = p_total AND p.message_id IS NULL;
  IF v_count = 0 THEN
    RETURN;
  END IF;

  SELECT n.client_id INTO v_client FROM numbers n WHERE n.number = p_to;
  IF v_client IS NULL THEN
    DELETE FROM inbound_parts p
    WHERE p.method = p_method AND p.from_number = p_from AND p.to_number = p_to
      AND p.reference = p_reference AND p.total = p_total AND p.message_id IS NULL;
    RETURN QUERY SELECT 'unrouted'::text, NULL::uuid;
    RETURN;
  END IF;

  INSERT INTO inbound_messages AS m (id, client_id, method, provider_message_id, from_number,
    to_number, body, encoding, segments, complete, keyword)
  SELECT gen_random_uuid(), v_client, p_method, v_pid, p_from, p_to, j.body,
    -- The widest coding of its parts (a phone codes each part alike; a gateway may not).
    CASE j.width WHEN 3 THEN 'UCS-2' WHEN 2 THEN 'Latin-1' ELSE 'GSM-7' END,
    j.parts, j.parts = p_total, inbound_keyword(j.body)
  FROM (
    SELECT string_agg(p.body, '' ORDER BY p.part_number) AS body, count(*)::integer AS parts,
      max(CASE p.encoding WHEN 'UCS-2' THEN 3 WHEN 'Latin-1' THEN 2 ELSE 1 END) AS width
    FROM inbound_parts p
    WHERE p.method = p_method AND p.from_number = p_from AND p.to_number = p_to
      AND p.reference = p_reference AND p.total = p_total AND p.message_id IS NULL
  ) j
  ON CONFLICT (method, provider_message_id) WHERE provider_message_id IS NOT NULL DO NOTHING
  RETURNING m.id INTO v_id;

  IF v_id IS NULL THEN
    -- Its first part's id names a message stored already (delivered again after its parts
    -- were cleared): that one is the message.
    SELECT m.id INTO v_id FROM inbound_messages m
    WHERE m.method = p_method AND m.provider_message_id = v_pid;
    r_outcome := 'duplicate';
  ELSE
    r_outcome := 'stored';
  END IF;
  UPDATE inbound_parts p SET message_id = v_id
  WHERE p.method = p_method AND p.from_number = p_from AND p.to_number = p_to
    AND p.reference = p_reference AND p.total = p_total AND p.message_id IS NULL;
  r_message_id := v_id;
  RETURN NEXT;
END
$$;
