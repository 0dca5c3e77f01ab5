-- Sending by destination (issue 19; CONTRACT.md "Destinations: prices, permissions and
-- throughput"): each message is charged at its recipient's price at accept time, refused when
-- its destination is blocked or outside the client's allowed prefixes, and refused when the
-- client is beyond its messages per second, counted here so that every node sees one count.
-- All of it happens inside the one statement that accepts a batch of sends (send_sms_batch):
-- no second round trip per send.

-- The amount of a message, in one place: segments × price per segment, rounded to the balance's
-- scale (4 decimal places, MONEY_SCALE) half up (numeric round() rounds half away from zero, and
-- amounts are never negative). The amount is what the ledger and the balance move by, so the
-- ledger sums to the balance whatever the prices.
CREATE FUNCTION sms_amount(p_segments integer, p_price_per_segment numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT round(p_segments * p_price_per_segment, 4)
$$;

-- The price list's entry with the longest prefix of the recipient's digits (none: no row). An
-- index probe on the primary key: the recipient's 1 to 15 leading digits are the candidates.
CREATE FUNCTION destination_price(p_recipient text)
RETURNS TABLE (prefix text, name text, price_per_segment numeric, blocked boolean)
LANGUAGE sql STABLE AS $$
  SELECT p.prefix, p.name, p.price_per_segment, p.blocked
  FROM prices p
  WHERE p.prefix = ANY (ARRAY(
    SELECT left(d.digits, n)
    FROM (SELECT regexp_replace(p_recipient, '[^0-9]', '', 'g') AS digits) d,
         generate_series(1, least(15, length(d.digits))) AS n))
  ORDER BY length(p.prefix) DESC
  LIMIT 1
$$;

-- What a send of p_segments to p_recipient costs and whether a client with p_allowed (its
-- allowed_prefixes) may send it: the one place the send (accept_sms) and the quote compute both.
-- refusal: 'blocked' (the destination is closed to everyone), 'not-allowed' (outside the client's
-- allowed prefixes) or null. price_prefix null: the default price p_default_price (SMS_PRICE).
CREATE FUNCTION price_sms(p_recipient text, p_segments integer, p_default_price numeric,
                          p_allowed text[])
RETURNS TABLE (price_prefix text, price_name text, price_per_segment numeric, amount numeric,
               refusal text)
LANGUAGE sql STABLE AS $$
  SELECT dp.prefix, dp.name, COALESCE(dp.price_per_segment, p_default_price),
         sms_amount(p_segments, COALESCE(dp.price_per_segment, p_default_price)),
         CASE
           WHEN dp.blocked THEN 'blocked'
           WHEN p_allowed IS NOT NULL AND NOT EXISTS (
             SELECT 1 FROM unnest(p_allowed) AS a(prefix)
             WHERE starts_with(regexp_replace(p_recipient, '[^0-9]', '', 'g'), a.prefix))
             THEN 'not-allowed'
         END
  FROM (SELECT 1) one LEFT JOIN destination_price(p_recipient) dp ON true
$$;

-- Messages a second per client over all nodes: one row per client that has a limit, the current
-- second (epoch seconds, the database's clock) and how many sends it has accepted. Clients
-- without a limit never touch it.
CREATE TABLE client_send_windows (
  client_id uuid PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
  window_second bigint NOT NULL,
  sent integer NOT NULL
);

-- accept_sms takes the default price instead of the price, and answers refusals with a reason
-- (refusal: 'no-client', 'blocked', 'not-allowed', 'throttled' with retry_after seconds, or
-- 'no-balance'); a refused send writes nothing and leaves no idempotency key behind.
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
  p_request_hash text DEFAULT NULL
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
                        segments, price, currency, price_per_segment, price_prefix)
  VALUES (debit.client_id, p_owner_id, p_sender, p_recipient, p_body, p_reference, 'ACCEPTED',
          p_encoding, p_segments, q.amount, debit.currency, q.price_per_segment, q.price_prefix)
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

-- As 003's, with the default price ({defaultPrice} instead of {price}) and one row per element:
-- accepted, replayed, or refused (message null, refusal set).
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
                               e->>'key', e->>'hash')
    LOOP
      IF r.refusal IS NULL AND NOT r.replayed THEN
        accepted := accepted || (r.message->>'id')::uuid;
      END IF;
      RETURN QUERY SELECT i, r.message, r.replayed, r.conflict, r.refusal, r.price_prefix,
                          r.price_name, r.retry_after;
    END LOOP;
  END LOOP;
  PERFORM enqueue_delivery(accepted);
END
$$;

-- Refunds carry the price the message was charged at, as its SMS entry does.
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
    RETURNING id, client_id, price, price_per_segment, price_prefix
  LOOP
    SELECT id, amount INTO bal FROM balances WHERE client_id = m.client_id FOR UPDATE;
    CONTINUE WHEN NOT FOUND;
    INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason, message_id,
                                price_per_segment, price_prefix)
    VALUES (bal.id, m.client_id, m.price, bal.amount + m.price, 'REFUND', m.id,
            m.price_per_segment, m.price_prefix)
    ON CONFLICT (message_id) WHERE reason = 'REFUND' DO NOTHING
    RETURNING id INTO ledger_id;
    CONTINUE WHEN ledger_id IS NULL;
    UPDATE balances SET amount = amount + m.price, date_updated = now() WHERE id = bal.id;
    RETURN NEXT m.id;
  END LOOP;
END
$$;
