-- Fair delivery (issue 30, finding 1; CONTRACT "Fair delivery"): clients share the providers in
-- turn rather than first come, first served. Each client's delivery jobs form a lane; a lane's
-- jobs take consecutive slots, DELIVERY_LANE_QUANTUM (10) to a round, starting no earlier than the
-- round after the last one a worker took, and a job's pg-boss priority is minus its round, so
-- the queue's fetch (priority, then age) serves every lane's round r before anyone's round r + 1.
-- A new message of an idle client therefore lands in the next round, ahead of another client's
-- backlog. Both rows live here so that every node ranks and fetches alike (enqueue_delivery_jobs,
-- advance_delivery_round in migrations/functions/).

-- Per client: the next free slot of its lane (slot / quantum is the round). No foreign key: a
-- deleted client's messages are cancelled by then, and its row is one number.
CREATE TABLE delivery_lanes (
  client_id uuid PRIMARY KEY,
  next_slot bigint NOT NULL
);

-- The highest round a worker has fetched, on any node: the one row.
CREATE TABLE delivery_clock (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  served_round bigint NOT NULL DEFAULT 0
);
INSERT INTO delivery_clock DEFAULT VALUES;
