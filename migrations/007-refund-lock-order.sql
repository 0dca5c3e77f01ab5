-- Refunds take the balance's lock before they write their ledger row, as accept_sms and free
-- credit do. The ledger's running balance relies on ledger ids growing in the order the balance
-- row was locked: 003's fail_messages drew its row's id first and locked the balance after, so a
-- send that committed in between got a larger id but an earlier balance, and `ledger:verify`
-- found entries whose balance-after was not the running sum (PostgreSQL, refunds racing sends).
CREATE OR REPLACE FUNCTION fail_messages(p_ids uuid[]) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  m record;
  bal record;
  ledger_id bigint;
BEGIN
  FOR m IN
    UPDATE messages SET state = 'FAILED', date_updated = now()
    WHERE id = ANY(p_ids) AND state = 'ACCEPTED'
    RETURNING id, client_id, price
  LOOP
    SELECT id, amount INTO bal FROM balances WHERE client_id = m.client_id FOR UPDATE;
    -- The client (and its balance) was deleted meanwhile: there is nothing to give back to.
    CONTINUE WHEN NOT FOUND;
    -- The refund row's unique index decides who refunds when failures race; the loser changes
    -- nothing.
    INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason, message_id)
    VALUES (bal.id, m.client_id, m.price, bal.amount + m.price, 'REFUND', m.id)
    ON CONFLICT (message_id) WHERE reason = 'REFUND' DO NOTHING
    RETURNING id INTO ledger_id;
    CONTINUE WHEN ledger_id IS NULL;
    UPDATE balances SET amount = amount + m.price, date_updated = now() WHERE id = bal.id;
    RETURN NEXT m.id;
  END LOOP;
END
$$;
