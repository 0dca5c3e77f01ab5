-- store_overdue_inbound: the 10-minute limit of a concatenated inbound message's parts (CONTRACT
-- "Two-way messaging": parts still missing after 10 minutes are stored as they are, with
-- complete false). Run by every node's inbox every few seconds (src/server/inbound/inbox.ts);
-- its state is the table, so a restart or a kill -9 loses nothing. Each group whose oldest
-- waiting part is older than p_limit is joined (join_inbound_parts) under the group's advisory
-- lock, taken without waiting: a group a writer or another node's sweep holds is left to them
-- (that sweep stores it; join_inbound_parts answers nothing for parts joined meanwhile), so two
-- nodes sweeping at once store it once. Parts kept after their join (to know one delivered
-- again) are removed once older than p_keep. Answers record_inbound's rows, r_ord null.

CREATE OR REPLACE FUNCTION store_overdue_inbound(p_limit interval, p_keep interval)
RETURNS TABLE (r_ord integer, r_outcome text, r_message_id uuid, r_method text)
LANGUAGE plpgsql AS $$
DECLARE
  g record;
BEGIN
  FOR g IN
    SELECT p.method, p.from_number, p.to_number, p.reference, p.total
    FROM inbound_parts p
    WHERE p.message_id IS NULL
    GROUP BY p.method, p.from_number, p.to_number, p.reference, p.total
    HAVING min(p.date_received) < now() - p_limit
    ORDER BY min(p.date_received)
    LIMIT 1000
  LOOP
    IF pg_try_advisory_xact_lock(3201, hashtext(g.method || ' ' || g.from_number || ' '
        || g.to_number || ' ' || g.reference || ' ' || g.total)) THEN
      RETURN QUERY
      SELECT NULL::integer, j.r_outcome, j.r_message_id, g.method
      FROM join_inbound_parts(g.method, g.from_number, g.to_number, g.reference, g.total) j;
    END IF;
  END LOOP;
  DELETE FROM inbound_parts p WHERE p.message_id IS NOT NULL AND p.date_received < now() - p_keep;
END
$$;
