-- refund_messages as it is now; its history before this file: migrations 019, 027.
-- A change to it is a diff of this file (migrations/README.md).

-- refund_messages (019), the one refund, set-based: it locked the balance, wrote a ledger row
-- and updated the balance once per message, so a big batch failing at once (fail_messages) was
-- as slow as cancelling one had been before 021. It now does what 021 made cancel_messages do:
-- one UPDATE moves the messages from p_from to p_to (its WHERE still decides between racing
-- callers: a message no longer in p_from is neither moved nor refunded), then per client, in
-- client id order, the balance is locked once, the REFUND rows are written by one INSERT in
-- message order with the running balance after each (ids drawn in that order while the balance
-- is locked, so the ledger check holds row by row), and the balance is updated once by their sum.
-- A message refunded already is skipped (the unique index of 003 stays the backstop); a message
-- of a deleted client is moved without a refund. Same result as before: one row per message
-- moved, refunded true when it was refunded now.
--
-- cancel_messages goes back to being refund_messages from SCHEDULED to CANCELED (as in 019), so
-- there is one refund again; fail_messages (019) already is refund_messages from ACCEPTED to
-- FAILED.
--
-- p_error (033, issue 30): the reason written on the messages moved (a CANCELED message's
-- `error` names who or what cancelled it), in the same UPDATE, so the status callback its
-- trigger queues carries it; null leaves `error` as it is.
CREATE OR REPLACE FUNCTION refund_messages(p_ids uuid[], p_from text, p_to text,
                                           p_error text DEFAULT NULL)
RETURNS TABLE (moved_id uuid, refunded boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_ids uuid[];
  v_refunded uuid[] := '{}';
  v_now uuid[];
  c record;
  bal record;
  v_total numeric;
BEGIN
  WITH moved AS (
    UPDATE messages m SET state = p_to, error = COALESCE(p_error, m.error), date_updated = now()
    WHERE m.id = ANY(p_ids) AND m.state = p_from
    RETURNING m.id
  )
  SELECT COALESCE(array_agg(moved.id), '{}') INTO v_ids FROM moved;
  FOR c IN
    SELECT DISTINCT m.client_id FROM messages m WHERE m.id = ANY(v_ids) ORDER BY m.client_id
  LOOP
    SELECT b.id, b.amount INTO bal FROM balances b WHERE b.client_id = c.client_id FOR UPDATE;
    CONTINUE WHEN NOT FOUND;
    WITH added AS (
      INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason,
                                  message_id, price_per_segment, price_prefix)
      SELECT bal.id, c.client_id, s.price, s.balance_after, 'REFUND', s.id, s.price_per_segment,
             s.price_prefix
      FROM (SELECT m.id, m.price, m.price_per_segment, m.price_prefix,
                   bal.amount + sum(m.price) OVER (ORDER BY m.id) AS balance_after
            FROM messages m
            WHERE m.id = ANY(v_ids) AND m.client_id = c.client_id
              AND NOT EXISTS (SELECT 1 FROM balance_ledger l
                              WHERE l.message_id = m.id AND l.reason = 'REFUND')) s
      ORDER BY s.id
      RETURNING balance_ledger.message_id, balance_ledger.amount
    )
    SELECT COALESCE(array_agg(added.message_id), '{}'), COALESCE(sum(added.amount), 0)
    INTO v_now, v_total FROM added;
    IF cardinality(v_now) > 0 THEN
      UPDATE balances SET amount = amount + v_total, date_updated = now() WHERE id = bal.id;
      v_refunded := v_refunded || v_now;
    END IF;
  END LOOP;
  RETURN QUERY
  SELECT u.id, r.id IS NOT NULL
  FROM unnest(v_ids) AS u(id) LEFT JOIN unnest(v_refunded) AS r(id) ON r.id = u.id;
END
$$;
