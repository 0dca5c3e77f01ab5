-- Receipts that no credential vouches for decide nothing about another customer's message.
--
-- Without VONAGE_SIGNATURE_SECRET anyone can call the Vonage webhook. Vonage's ids are
-- sequential, so a customer could post `rejected` receipts for the next ids before any submit
-- had claimed them: they waited in message_parts, and the submit that claimed them settled
-- another tenant's message as REJECTED. Such a receipt (`unauthenticated` in apply_receipts'
-- input, with its `clientRef`: Vonage's client-ref, which we set to our message id on every
-- submit) now counts only for the message it names:
--   - for a part already claimed: applied only when clientRef is that part's message, else
--     ignored (the webhook still answers 200, so a real provider stops sending it);
--   - for a part no submit has claimed yet: it waits only while the message it names can still
--     take a receipt (ACCEPTED or SUBMITTED), at most 10 (MAX_SMS_SEGMENTS) per message, and the
--     submit that claims the part throws it away unless it names the claiming message.
-- Receipts of the SMPP bind, of the gateway (bearer token) and signed Vonage receipts are
-- authenticated and work as before; an authenticated receipt also replaces an unauthenticated
-- one still waiting for its part.

ALTER TABLE message_parts
  -- Whether the receipt on this row (state) came from an authenticated source; true while the
  -- row holds no receipt.
  ADD COLUMN receipt_authenticated boolean NOT NULL DEFAULT true,
  -- The message an unauthenticated receipt named (null for authenticated ones).
  ADD COLUMN receipt_client_ref uuid;

-- Vonage receipts already waiting were taken before this check, possibly forged: where they came
-- from is unknown, so they now count as unauthenticated without a client-ref and are dropped
-- by the submit that claims their id (that message then waits for another receipt).
UPDATE message_parts SET receipt_authenticated = false
WHERE message_id IS NULL AND state IS NOT NULL AND method = 'VONAGE_SMS';

-- Counts the unauthenticated receipts waiting for one message (the cap above).
CREATE INDEX message_parts_waiting_ref_idx ON message_parts (receipt_client_ref)
  WHERE message_id IS NULL AND receipt_client_ref IS NOT NULL;

-- As in 003, plus `unauthenticated: {clientRef}` on a receipt (see the top of this file).
CREATE OR REPLACE FUNCTION apply_receipts(p jsonb) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  touched uuid[];
  fresh integer;
BEGIN
  WITH r AS (
    -- One receipt per part and batch, an authenticated one first.
    SELECT DISTINCT ON (x.method, x."providerMessageId")
           x.method, x."providerMessageId" AS provider_message_id, x.state, x.error,
           x.unauthenticated IS NULL AS authenticated,
           -- A client-ref that is not one of our ids (a uuid) names no message of ours.
           CASE WHEN x.unauthenticated->>'clientRef'
                       ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                THEN (x.unauthenticated->>'clientRef')::uuid END AS client_ref
    FROM jsonb_to_recordset(p)
         AS x(method text, "providerMessageId" text, state text, error text, unauthenticated jsonb)
    ORDER BY x.method, x."providerMessageId", x.unauthenticated IS NOT NULL
  ), admitted AS (
    SELECT r.* FROM r
    WHERE r.authenticated
       OR (EXISTS (SELECT 1 FROM messages m
                   WHERE m.id = r.client_ref AND m.state IN ('ACCEPTED', 'SUBMITTED'))
           AND (SELECT count(*) FROM message_parts w
                WHERE w.message_id IS NULL AND w.receipt_client_ref = r.client_ref) < 10)
  ), up AS (
    INSERT INTO message_parts AS mp (method, provider_message_id, state, error, date_receipt,
                                     receipt_authenticated, receipt_client_ref)
    SELECT method, provider_message_id, state, error, now(), authenticated, client_ref
    FROM admitted
    ON CONFLICT (method, provider_message_id) DO UPDATE
      SET state = excluded.state, error = excluded.error, date_receipt = now(),
          receipt_authenticated = excluded.receipt_authenticated,
          receipt_client_ref = excluded.receipt_client_ref
      -- Decided on the row as it is now (a submit may have claimed it since the batch began):
      -- the first receipt is kept, unless an authenticated one finds an unauthenticated one
      -- still waiting; an unauthenticated receipt never touches a part of another message.
      WHERE (mp.state IS NULL
             OR (mp.message_id IS NULL AND NOT mp.receipt_authenticated
                 AND excluded.receipt_authenticated))
        AND (excluded.receipt_authenticated OR mp.message_id IS NULL
             OR mp.message_id = excluded.receipt_client_ref)
    RETURNING mp.message_id
  )
  SELECT array_agg(DISTINCT message_id) FILTER (WHERE message_id IS NOT NULL), count(*)
  INTO touched, fresh FROM up;
  IF touched IS NOT NULL THEN
    PERFORM settle_messages(touched);
  END IF;
  RETURN fresh;
END
$$;

-- A submit claims its parts by setting message_id (record_attempts' upsert, or whatever later
-- writes it): a waiting unauthenticated receipt that names another message is dropped right
-- there, before the message is settled. A row trigger rather than a new record_attempts so every
-- way of claiming a part obeys it; its WHEN makes it fire only for such a waiting receipt, so
-- the batch statements stay set-based and pay nothing in the usual case.
CREATE FUNCTION message_parts_drop_foreign_receipt() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.receipt_client_ref IS DISTINCT FROM NEW.message_id THEN
    NEW.state := NULL;
    NEW.error := NULL;
    NEW.date_receipt := NULL;
    NEW.receipt_authenticated := true;
    NEW.receipt_client_ref := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER message_parts_drop_foreign_receipt
  BEFORE UPDATE OF message_id ON message_parts
  FOR EACH ROW
  WHEN (OLD.message_id IS NULL AND NEW.message_id IS NOT NULL
        AND OLD.state IS NOT NULL AND NOT OLD.receipt_authenticated)
  EXECUTE FUNCTION message_parts_drop_foreign_receipt();
