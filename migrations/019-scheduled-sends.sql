-- Scheduled sends (issue 20; CONTRACT.md "Campaigns: scheduled and bulk sends"): a send with
-- `sendAt` is charged at once and stored SCHEDULED; its delivery job is queued in the same
-- transaction to start at sendAt (the queue's start_after: no polling loop of ours). When the job
-- runs, release_messages moves it SCHEDULED → ACCEPTED and it is delivered as any other send. Until
-- then cancel_messages may move it SCHEDULED → CANCELED with its refund. Both are one UPDATE …
-- WHERE state = 'SCHEDULED' on the message's row: whichever commits first wins, the other finds
-- the row changed and does nothing, so a message is released or cancelled, never both, and the
-- refund's unique index (003) is the backstop of "refunded exactly once".

-- enqueue_delivery of 003 with an absolute start: one pg-boss job per message, straight into the
-- queue's table (pg-boss 12's schema, as 003), started at p_start and kept, as pg-boss keeps its
-- own, for the queue's retention after that.
CREATE FUNCTION enqueue_delivery_at(p_message_ids uuid[], p_start timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  q record;
BEGIN
  IF cardinality(p_message_ids) = 0 THEN
    RETURN;
  END IF;
  SELECT * INTO q FROM pgboss.queue WHERE name = 'sms-delivery';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'delivery queue sms-delivery does not exist';
  END IF;
  EXECUTE format(
    'INSERT INTO pgboss.%I (id, name, data, priority, start_after, expire_seconds,
                            deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff,
                            retry_delay_max, policy, heartbeat_seconds)
     SELECT gen_random_uuid(), $1, jsonb_build_object(''messageId'', m.id), 0,
            $2, $3, $4, $2 + $5 * interval ''1s'',
            $6, $7, $8, $9, $10, $11
     FROM unnest($12::uuid[]) AS m(id)', q.table_name)
  USING q.name, p_start, q.expire_seconds, q.deletion_seconds, q.retention_seconds,
        q.retry_limit, q.retry_delay, q.retry_backoff, q.retry_delay_max, q.policy,
        q.heartbeat_seconds, p_message_ids;
END
$$;

-- The relative form is the absolute one from now: one body for both.
CREATE OR REPLACE FUNCTION enqueue_delivery(p_message_ids uuid[], p_delay_seconds integer DEFAULT 0)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM enqueue_delivery_at(p_message_ids, now() + p_delay_seconds * interval '1s');
END
$$;

-- accept_sms of 015 with p_send_at: null sends at once (ACCEPTED), else the message is SCHEDULED
-- with send_at. Price, permission, the client's messages a second and the debit are the same:
-- a scheduled send is charged and counted against maxMessagesPerSecond when it is accepted, not
-- when it is released. The caller queues the job (send_sms_batch).
DROP FUNCTION send_sms_batch(jsonb);
DROP FUNCTION accept_sms(uuid, uuid, numeric, text, text, text, text, text, integer, uuid, text,
                         text);
CREATE FUNCTION accept_sms(
  p_client_id uuid,
  p_owner_id uuid,
  p_default_price numeric,
  p_sender text,
  p_recipient text,
  p_body text,
  p_reference text,
  p_encoding text,
  p_segments integer,
  p_actor_user_id uuid,
  p_idempotency_key text DEFAULT NULL,
  p_request_hash text DEFAULT NULL,
  p_send_at timestamptz DEFAULT NULL
) RETURNS TABLE (message jsonb, replayed boolean, conflict boolean, refusal text,
                 price_prefix text, price_name text, retry_after integer)
LANGUAGE plpgsql AS $$
DECLARE
  cl record;
  q record;
  debit record;
  m messages;
  stored idempotency_keys;
  counted boolean := false;
BEGIN
  -- Only the owner's client may send (another user's id must look unknown).
  SELECT c.allowed_prefixes, c.max_messages_per_second INTO cl
  FROM clients c WHERE c.id = p_client_id AND c.user_id = p_owner_id;
  IF NOT FOUND THEN
    RETURN QUERY SELECT NULL::jsonb, false, false, 'no-client', NULL::text, NULL::text,
                        NULL::integer;
    RETURN;
  END IF;

  IF p_idempotency_key IS NOT NULL THEN
    INSERT INTO idempotency_keys AS k (client_id, key, request_hash)
    VALUES (p_client_id, p_idempotency_key, p_request_hash)
    ON CONFLICT (client_id, key) DO UPDATE
      SET request_hash = excluded.request_hash, message_id = NULL, response = NULL,
          date_created = now()
      WHERE k.date_created < now() - interval '24 hours';
    IF NOT FOUND THEN
      SELECT * INTO stored FROM idempotency_keys
      WHERE client_id = p_client_id AND key = p_idempotency_key;
      RETURN QUERY SELECT stored.response, true, stored.request_hash <> p_request_hash,
                          NULL::text, NULL::text, NULL::text, NULL::integer;
      RETURN;
    END IF;
  END IF;

  SELECT * INTO q FROM price_sms(p_recipient, p_segments, p_default_price, cl.allowed_prefixes);
  IF q.refusal IS NULL AND cl.max_messages_per_second IS NOT NULL THEN
    -- The clock is read once the row is locked, so a send that waited for it counts in the
    -- second it is accepted in; a late reader never moves the window back.
    INSERT INTO client_send_windows AS w (client_id, window_second, sent)
    VALUES (p_client_id, floor(extract(epoch FROM clock_timestamp())), 1)
    ON CONFLICT (client_id) DO UPDATE
      SET sent = CASE WHEN w.window_second >= floor(extract(epoch FROM clock_timestamp()))
                      THEN w.sent + 1 ELSE 1 END,
          window_second = greatest(w.window_second, floor(extract(epoch FROM clock_timestamp())))
      WHERE w.window_second < floor(extract(epoch FROM clock_timestamp()))
         OR w.sent < cl.max_messages_per_second;
    IF NOT FOUND THEN
      q.refusal := 'throttled';
    ELSE
      counted := true;
    END IF;
  END IF;
  IF q.refusal IS NULL THEN
    UPDATE balances b SET amount = b.amount - q.amount, date_updated = now()
    WHERE b.client_id = p_client_id AND b.amount >= q.amount
    RETURNING b.id, b.client_id, b.amount, b.currency INTO debit;
    IF NOT FOUND THEN
      q.refusal := 'no-balance';
      IF counted THEN
        UPDATE client_send_windows SET sent = sent - 1 WHERE client_id = p_client_id;
      END IF;
    END IF;
  END IF;
  IF q.refusal IS NOT NULL THEN
    IF p_idempotency_key IS NOT NULL THEN
      DELETE FROM idempotency_keys WHERE client_id = p_client_id AND key = p_idempotency_key;
    END IF;
    RETURN QUERY SELECT NULL::jsonb, false, false, q.refusal, q.price_prefix, q.price_name,
      CASE WHEN q.refusal = 'throttled' THEN
        greatest(1, ceil(floor(extract(epoch FROM clock_timestamp())) + 1
                         - extract(epoch FROM clock_timestamp())))::integer
      END;
    RETURN;
  END IF;

  INSERT INTO messages (client_id, user_id, sender, recipient, body, reference, state, encoding,
                        segments, price, currency, price_per_segment, price_prefix, send_at)
  VALUES (debit.client_id, p_owner_id, p_sender, p_recipient, p_body, p_reference,
          CASE WHEN p_send_at IS NULL THEN 'ACCEPTED' ELSE 'SCHEDULED' END,
          p_encoding, p_segments, q.amount, debit.currency, q.price_per_segment, q.price_prefix,
          p_send_at)
  RETURNING * INTO m;
  INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason, actor_user_id,
                              message_id, price_per_segment, price_prefix)
  VALUES (debit.id, debit.client_id, -q.amount, debit.amount, 'SMS', p_actor_user_id, m.id,
          q.price_per_segment, q.price_prefix);
  IF p_idempotency_key IS NOT NULL THEN
    UPDATE idempotency_keys SET message_id = m.id, response = to_jsonb(m)
    WHERE client_id = p_client_id AND key = p_idempotency_key;
  END IF;
  RETURN QUERY SELECT to_jsonb(m), false, false, NULL::text, NULL::text, NULL::text,
                      NULL::integer;
END
$$;

-- As 015's, with each element's optional {sendAt}: the messages sent at once get their jobs now
-- (one enqueue_delivery), a scheduled one its job at its sendAt, all in this one transaction.
CREATE FUNCTION send_sms_batch(p jsonb)
RETURNS TABLE (idx integer, message jsonb, replayed boolean, conflict boolean, refusal text,
               price_prefix text, price_name text, retry_after integer)
LANGUAGE plpgsql AS $$
DECLARE
  e jsonb;
  r record;
  accepted uuid[] := '{}';
BEGIN
  FOR i IN 1 .. jsonb_array_length(p) LOOP
    e := p->(i - 1);
    FOR r IN
      SELECT * FROM accept_sms((e->>'clientId')::uuid, (e->>'ownerId')::uuid,
                               (e->>'defaultPrice')::numeric, e->>'sender', e->>'recipient',
                               e->>'body', e->>'reference', e->>'encoding',
                               (e->>'segments')::integer, (e->>'actorUserId')::uuid,
                               e->>'key', e->>'hash', (e->>'sendAt')::timestamptz)
    LOOP
      IF r.refusal IS NULL AND NOT r.replayed THEN
        IF e->>'sendAt' IS NULL THEN
          accepted := accepted || (r.message->>'id')::uuid;
        ELSE
          PERFORM enqueue_delivery_at(ARRAY[(r.message->>'id')::uuid],
                                      (e->>'sendAt')::timestamptz);
        END IF;
      END IF;
      RETURN QUERY SELECT i, r.message, r.replayed, r.conflict, r.refusal, r.price_prefix,
                          r.price_name, r.retry_after;
    END LOOP;
  END LOOP;
  PERFORM enqueue_delivery(accepted);
END
$$;

-- The refund of one message, the one way a price comes back: the balance locked first (ledger
-- ids grow in the order the balance row is locked, 007), then the REFUND row with the price the
-- message was charged at, whose unique index (003) lets only the first refund of a message
-- through. False when there was nothing to do: refunded already, or the client (and its
-- balance) deleted meanwhile.
CREATE FUNCTION refund_message(p_message_id uuid, p_client_id uuid, p_price numeric,
                               p_price_per_segment numeric, p_price_prefix text)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  bal record;
  ledger_id bigint;
BEGIN
  SELECT id, amount INTO bal FROM balances WHERE client_id = p_client_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason, message_id,
                              price_per_segment, price_prefix)
  VALUES (bal.id, p_client_id, p_price, bal.amount + p_price, 'REFUND', p_message_id,
          p_price_per_segment, p_price_prefix)
  ON CONFLICT (message_id) WHERE reason = 'REFUND' DO NOTHING
  RETURNING id INTO ledger_id;
  IF ledger_id IS NULL THEN
    RETURN false;
  END IF;
  UPDATE balances SET amount = amount + p_price, date_updated = now() WHERE id = bal.id;
  RETURN true;
END
$$;

-- fail_messages of 015 through refund_message: ACCEPTED → FAILED, refunded exactly once.
CREATE OR REPLACE FUNCTION fail_messages(p_ids uuid[]) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  m record;
BEGIN
  FOR m IN
    UPDATE messages SET state = 'FAILED', date_updated = now()
    WHERE id = ANY(p_ids) AND state = 'ACCEPTED'
    RETURNING id, client_id, price, price_per_segment, price_prefix
  LOOP
    IF refund_message(m.id, m.client_id, m.price, m.price_per_segment, m.price_prefix) THEN
      RETURN NEXT m.id;
    END IF;
  END LOOP;
END
$$;

-- SCHEDULED → CANCELED and the refund, exactly once: the UPDATE's WHERE state = 'SCHEDULED'
-- decides between racing cancels and the release (the loser finds the row changed and moves
-- nothing), and refund_message's unique index is the backstop. Returns the ids cancelled now;
-- a message of a deleted client is cancelled without a refund (there is no balance to credit).
CREATE FUNCTION cancel_messages(p_ids uuid[]) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  m record;
BEGIN
  FOR m IN
    UPDATE messages SET state = 'CANCELED', date_updated = now()
    WHERE id = ANY(p_ids) AND state = 'SCHEDULED'
    RETURNING id, client_id, price, price_per_segment, price_prefix
  LOOP
    PERFORM refund_message(m.id, m.client_id, m.price, m.price_per_segment, m.price_prefix);
    RETURN NEXT m.id;
  END LOOP;
END
$$;

-- The release, by the delivery job of a scheduled message when it runs (at send_at): SCHEDULED →
-- ACCEPTED, and the job goes on to deliver it as any other. A cancelled message is no longer
-- SCHEDULED and stays as it is (its job completes with nothing sent). A message not due yet (a
-- second job queued by hand) is left for its own job at send_at. Returns the ids released now.
-- Every batch of delivery jobs comes through here: without a scheduled message among them there
-- is no UPDATE (whose statement trigger would run for nothing).
CREATE FUNCTION release_messages(p_ids uuid[]) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM messages WHERE id = ANY(p_ids) AND state = 'SCHEDULED') THEN
    RETURN;
  END IF;
  RETURN QUERY
  WITH released AS (
    UPDATE messages SET state = 'ACCEPTED', date_updated = now()
    WHERE id = ANY(p_ids) AND state = 'SCHEDULED' AND send_at <= now()
    RETURNING id
  )
  SELECT id FROM released;
END
$$;
