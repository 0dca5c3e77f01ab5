-- cancel_stopped_messages: new with issue 30 ("Stopping traffic": the re-check at release and at
-- each attempt). A change to it is a diff of this file (migrations/README.md).

-- Called by release_messages(p_ids, p_jobs), that is by every delivery job's load before its
-- attempt: of the jobs' messages not yet taken by a provider (SCHEDULED or ACCEPTED) whose
-- waiting job, if any, is one of these jobs (the jobs that hold them: no other worker can be
-- submitting them), those that would be refused now become CANCELED, each refunded once
-- (refund_messages): their client no longer exists, their destination is blocked, or it is
-- outside the client's allowedPrefixes (price_sms's refusal, the send's own check), or their
-- recipient opted out of the client's messages (issue 32; not a keyword's auto-reply). One
-- set-based check per batch of jobs; no UPDATE when none is stopped. Returns the ids cancelled
-- now with the reason.
CREATE OR REPLACE FUNCTION cancel_stopped_messages(p_ids uuid[], p_jobs uuid[])
RETURNS TABLE (message_id uuid, reason text)
LANGUAGE plpgsql AS $$
DECLARE
  v_ids uuid[];
  v_reasons text[];
BEGIN
  SELECT COALESCE(array_agg(s.id), '{}'), COALESCE(array_agg(s.reason), '{}')
  INTO v_ids, v_reasons
  FROM (
    SELECT m.id,
           CASE WHEN cl.id IS NULL THEN 'canceled: the client was deleted'
                WHEN p.refusal = 'blocked' THEN 'canceled: the destination is blocked'
                WHEN p.refusal = 'not-allowed'
                  THEN 'canceled: the destination is outside the client''s allowed prefixes'
                -- Opt-outs (issue 32); a keyword's auto-reply goes all the same.
                WHEN m.reply_to IS NULL AND EXISTS (
                  SELECT 1 FROM optouts o WHERE o.client_id = m.client_id
                                            AND o.number = m.recipient)
                  THEN 'canceled: the recipient opted out'
           END AS reason
    FROM messages m
    LEFT JOIN clients cl ON cl.id = m.client_id
    LEFT JOIN LATERAL price_sms(m.recipient, 1, 0, cl.allowed_prefixes) p ON cl.id IS NOT NULL
    WHERE m.id = ANY(p_ids) AND m.state IN ('SCHEDULED', 'ACCEPTED')
      AND (m.waiting_job IS NULL OR m.waiting_job = ANY(p_jobs))
  ) s
  WHERE s.reason IS NOT NULL;
  IF cardinality(v_ids) = 0 THEN
    RETURN;
  END IF;
  RETURN QUERY
  SELECT r.moved_id, t.reason
  FROM (SELECT moved_id FROM refund_messages(v_ids, 'SCHEDULED', 'CANCELED')
        UNION ALL
        SELECT moved_id FROM refund_messages(v_ids, 'ACCEPTED', 'CANCELED')) r
  JOIN unnest(v_ids, v_reasons) AS t(id, reason) ON t.id = r.moved_id;
END
$$;
