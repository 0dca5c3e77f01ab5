-- advance_delivery_round (new, issue 30 finding 1): see 031-fair-delivery.sql.
-- A change to it is a diff of this file (migrations/README.md).

-- A worker took jobs up to round p_round (their priority is minus their round): the clock moves
-- on to it, never back. enqueue_delivery_jobs starts an idle client's lane in the round after
-- it, so a newcomer goes ahead of the backlog still waiting and a lane that emptied long ago
-- takes no credit for it. Its own statement, apart from the load of the jobs, so that the one
-- row is locked only as long as this update; each node comes here at most every 100 ms
-- (servedRounds in src/server/delivery/jobs.ts).
CREATE OR REPLACE FUNCTION advance_delivery_round(p_round bigint) RETURNS void
LANGUAGE sql AS $$
  UPDATE delivery_clock SET served_round = p_round WHERE served_round < p_round
$$;
