-- apply_receipts as it is now; its history before this file: migrations 003, 008.
-- A change to it is a diff of this file (migrations/README.md).

-- As in 003, plus `unauthenticated: {clientRef}` on a receipt (see the top of migrations/008-receipt-authenticity.sql).
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
