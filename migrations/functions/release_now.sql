-- release_now as it is now; its history before this file: migrations 021.
-- A change to it is a diff of this file (migrations/README.md).

-- Lets messages go now: SCHEDULED → ACCEPTED, or a batch's ACCEPTED message marked counted;
-- released_at p_at (a paced release: a time inside the second it was counted in). Re-checks the
-- state, so a message cancelled meanwhile is left as it is. One row per message let go: its
-- state after, its waiting job, and whether it was SCHEDULED.
CREATE OR REPLACE FUNCTION release_now(p_ids uuid[], p_at timestamptz)
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
