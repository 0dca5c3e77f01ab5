-- cancel_untaken_messages: new with issue 30 ("Stopping traffic"; staff cancel, owner's batch
-- cancel, client deletion). A change to it is a diff of this file (migrations/README.md).

-- Of p_ids, the messages not yet taken by a provider become CANCELED, each refunded once
-- (refund_messages): SCHEDULED ones, and ACCEPTED ones whose delivery job no worker holds.
-- Race with a worker: a worker takes a message by fetching its job (pg-boss marks it active,
-- its fetch locking job rows FOR UPDATE SKIP LOCKED), then loads the message and submits it only
-- if it is still ACCEPTED; record_attempts moves only ACCEPTED/SUBMITTED messages. Here the
-- messages' waiting and active jobs are locked first: a fetch that has not committed yet is
-- waited for (its job is then active and its message is left to it, to be sent), and a fetch
-- after this one commits skips nothing and finds the message CANCELED (its job completes with
-- nothing sent). So each message is either sent or cancelled and refunded, never both.
-- p_reason (033): the messages' error, who cancelled them ('canceled by staff', 'canceled by the
-- owner', 'canceled: the client was deleted'). Returns the ids cancelled now.
CREATE OR REPLACE FUNCTION cancel_untaken_messages(p_ids uuid[], p_reason text DEFAULT NULL)
RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  v_active uuid[];
  v_active_jobs uuid[];
  v_held uuid[];
  v_free uuid[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM messages
                 WHERE id = ANY(p_ids) AND state IN ('SCHEDULED', 'ACCEPTED')) THEN
    RETURN;
  END IF;
  -- The locked rows are read as they are once locked (READ COMMITTED): a job a worker fetched
  -- meanwhile comes back active.
  SELECT COALESCE(array_agg(j.message_id) FILTER (WHERE j.state = 'active'), '{}'),
         COALESCE(array_agg(j.job_id) FILTER (WHERE j.state = 'active'), '{}')
  INTO v_active, v_active_jobs
  FROM (SELECT (jb.data->>'messageId')::uuid AS message_id, jb.id AS job_id,
               jb.state::text AS state
        -- A join rather than = ANY(p_ids): hashed, so a batch of 10,000 is one pass over the
        -- queue's jobs, not 10,000 comparisons a job.
        FROM pgboss.job jb
        JOIN unnest(p_ids::text[]) AS u(id) ON u.id = jb.data->>'messageId'
        WHERE jb.name = 'sms-delivery'
          AND jb.state IN ('created', 'retry', 'active')
        ORDER BY jb.id
        FOR UPDATE OF jb) j;
  -- An active job holds its message only while it is in charge of it: the message has no
  -- waiting job, or this is the one. A job whose load gave its message a newer job (a paced
  -- batch's first load books most of them at later seconds, and stays active while it sends
  -- the first second's) sends nothing more of it: that message is free to cancel. Read after the
  -- jobs are locked, so a load that moved it meanwhile is seen.
  SELECT COALESCE(array_agg(DISTINCT m.id), '{}') INTO v_held
  FROM unnest(v_active, v_active_jobs) AS a(message_id, job_id)
  JOIN messages m ON m.id = a.message_id
  WHERE m.waiting_job IS NULL OR m.waiting_job = a.job_id;
  SELECT COALESCE(array_agg(u.id), '{}') INTO v_free
  FROM unnest(p_ids) AS u(id) WHERE NOT u.id = ANY(v_held);
  RETURN QUERY
  SELECT moved_id FROM refund_messages(v_free, 'SCHEDULED', 'CANCELED', p_reason)
  UNION ALL
  SELECT moved_id FROM refund_messages(v_free, 'ACCEPTED', 'CANCELED', p_reason);
END
$$;
