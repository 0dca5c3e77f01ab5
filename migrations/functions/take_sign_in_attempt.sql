-- take_sign_in_attempt as it is now; its history before this file: migrations 012.
-- A change to it is a diff of this file (migrations/README.md).

-- Counts one try on every counter of p_keys when each enforced one (p_enforced) is under its
-- limit (p_limits) in its window of p_window_ms, as LoginThrottle's `take`: a refused try is
-- not counted. Answers the milliseconds to wait (0 when counted) and the counters that refused
-- it; when counted, each counter's window start, in p_keys' order (to give the try back).
-- Rows are locked in key order by one upsert, so calls sharing counters never deadlock.
CREATE OR REPLACE FUNCTION take_sign_in_attempt(
  p_keys text[], p_limits integer[], p_enforced boolean[], p_window_ms bigint
) RETURNS TABLE (wait_ms bigint, refused_by text[], window_starts bigint[])
LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := (extract(epoch FROM now()) * 1000)::bigint;
BEGIN
  INSERT INTO sign_in_attempts AS a (key, window_start_ms, count)
    SELECT k, now_ms, 0 FROM unnest(p_keys) AS k ORDER BY k
  ON CONFLICT (key) DO UPDATE SET
    window_start_ms = CASE WHEN a.window_start_ms <= now_ms - p_window_ms
                           THEN now_ms ELSE a.window_start_ms END,
    count = CASE WHEN a.window_start_ms <= now_ms - p_window_ms THEN 0 ELSE a.count END;
  SELECT coalesce(max(a.window_start_ms + p_window_ms - now_ms), 0), array_agg(a.key)
    INTO wait_ms, refused_by
  FROM sign_in_attempts a
  JOIN unnest(p_keys, p_limits, p_enforced) AS t(key, lim, enforced) ON a.key = t.key
  WHERE t.enforced AND a.count >= t.lim;
  IF wait_ms > 0 THEN
    RETURN NEXT;
    RETURN;
  END IF;
  refused_by := '{}';
  UPDATE sign_in_attempts a SET count = a.count + 1 WHERE a.key = ANY (p_keys);
  SELECT array_agg(a.window_start_ms ORDER BY k.n) INTO window_starts
  FROM unnest(p_keys) WITH ORDINALITY AS k(key, n)
  JOIN sign_in_attempts a ON a.key = k.key;
  RETURN NEXT;
END
$$;
