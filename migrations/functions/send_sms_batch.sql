-- send_sms_batch as it is now; its history before this file: migrations 003, 015, 019, 022, 025, 028.
-- A change to it is a diff of this file (migrations/README.md).
--
-- Opt-outs (issue 32): a send to a recipient with an optouts row for its client is refused
-- ('opted-out'), read in this statement, so a STOP committed on any node holds for the next send
-- at once. A keyword's auto-reply (`replyTo`: the inbound message it answers) is the exception,
-- and is written once per inbound message ('replied' when it already was).

CREATE OR REPLACE FUNCTION send_sms_batch(p jsonb)
RETURNS TABLE (idx integer, message jsonb, replayed boolean, conflict boolean, refusal text,
               price_prefix text, price_name text, retry_after integer, answer text)
LANGUAGE plpgsql AS $$
DECLARE
  e jsonb;
  cl record;
  q record;
  bal record;
  stored idempotency_keys;
  v_client uuid;
  v_owner uuid;
  v_key text;
  v_hash text;
  v_send_at timestamptz;
  counted boolean;
  pos integer;
  earlier integer;
  -- The balances the group has locked: client, id, currency, amount left.
  b_client uuid[] := '{}';
  b_id uuid[] := '{}';
  b_currency text[] := '{}';
  b_amount numeric[] := '{}';
  b_debited boolean[] := '{}';
  -- The accepted sends, in the group's order.
  a_idx integer[] := '{}';
  a_id uuid[] := '{}';
  a_client uuid[] := '{}';
  a_owner uuid[] := '{}';
  a_sender text[] := '{}';
  a_recipient text[] := '{}';
  a_body text[] := '{}';
  a_reference text[] := '{}';
  a_encoding text[] := '{}';
  a_segments integer[] := '{}';
  a_amount numeric[] := '{}';
  a_currency text[] := '{}';
  a_price_per_segment numeric[] := '{}';
  a_prefix text[] := '{}';
  a_send_at timestamptz[] := '{}';
  a_actor uuid[] := '{}';
  a_balance_id uuid[] := '{}';
  a_balance_after numeric[] := '{}';
  a_key text[] := '{}';
  a_reply_to uuid[] := '{}';
  -- Whether any accepted send has a key, or a sendAt: the writes only they need are skipped.
  keyed boolean := false;
  scheduled boolean := false;
  -- Repeats, within the group, of a key an earlier send of the group claimed.
  r_idx integer[] := '{}';
  r_of uuid[] := '{}';
  r_conflict boolean[] := '{}';
  start timestamptz;
BEGIN
  -- Every balance the group may debit is locked first, in one order (by client id), so two
  -- groups in flight at once (the node writes the next while the last commits) queue on the
  -- first balance they share instead of deadlocking on two.
  PERFORM 1 FROM balances b
  WHERE b.client_id IN (SELECT (x->>'clientId')::uuid FROM jsonb_array_elements(p) AS x)
  ORDER BY b.client_id
  FOR UPDATE;
  FOR i IN 1 .. jsonb_array_length(p) LOOP
    e := p->(i - 1);
    v_client := (e->>'clientId')::uuid;
    v_owner := (e->>'ownerId')::uuid;
    v_key := e->>'key';
    v_hash := e->>'hash';
    v_send_at := (e->>'sendAt')::timestamptz;

    -- Only the owner's client may send (another user's id must look unknown).
    SELECT c.allowed_prefixes, c.max_messages_per_second INTO cl
    FROM clients c WHERE c.id = v_client AND c.user_id = v_owner;
    IF NOT FOUND THEN
      RETURN QUERY SELECT i, NULL::jsonb, false, false, 'no-client', NULL::text, NULL::text,
                          NULL::integer, NULL::text;
      CONTINUE;
    END IF;

    IF v_key IS NOT NULL THEN
      INSERT INTO idempotency_keys AS k (client_id, key, request_hash)
      VALUES (v_client, v_key, v_hash)
      ON CONFLICT (client_id, key) DO UPDATE
        SET request_hash = excluded.request_hash, message_id = NULL, response = NULL,
            date_created = now()
        WHERE k.date_created < now() - interval '24 hours';
      IF NOT FOUND THEN
        SELECT * INTO stored FROM idempotency_keys k
        WHERE k.client_id = v_client AND k.key = v_key;
        earlier := NULL;
        IF stored.response IS NULL THEN
          -- Claimed by an earlier send of this group, whose message is not written yet.
          FOR j IN 1 .. coalesce(array_length(a_idx, 1), 0) LOOP
            IF a_client[j] = v_client AND a_key[j] = v_key THEN
              earlier := j;
            END IF;
          END LOOP;
        END IF;
        IF earlier IS NOT NULL THEN
          r_idx := r_idx || i;
          r_of := r_of || a_id[earlier];
          r_conflict := r_conflict || (stored.request_hash <> v_hash);
        ELSE
          -- The answer of then: the message as stored with the key (to_jsonb of its row).
          RETURN QUERY SELECT i, stored.response, true, stored.request_hash <> v_hash,
                              NULL::text, NULL::text, NULL::text, NULL::integer,
                              message_json(jsonb_populate_record(NULL::messages,
                                                                 stored.response));
        END IF;
        CONTINUE;
      END IF;
    END IF;

    IF e->>'replyTo' IS NOT NULL
       AND EXISTS (SELECT 1 FROM messages m WHERE m.reply_to = (e->>'replyTo')::uuid) THEN
      RETURN QUERY SELECT i, NULL::jsonb, false, false, 'replied', NULL::text, NULL::text,
                          NULL::integer, NULL::text;
      CONTINUE;
    END IF;

    SELECT * INTO q
    FROM price_sms(e->>'recipient', (e->>'segments')::integer, (e->>'defaultPrice')::numeric,
                   cl.allowed_prefixes);
    IF q.refusal IS NULL AND e->>'replyTo' IS NULL
       AND EXISTS (SELECT 1 FROM optouts o
                   WHERE o.client_id = v_client AND o.number = e->>'recipient') THEN
      q.refusal := 'opted-out';
    END IF;
    counted := false;
    IF q.refusal IS NULL AND cl.max_messages_per_second IS NOT NULL THEN
      -- The clock is read once the row is locked, so a send that waited for it counts in the
      -- second it is accepted in; a late reader never moves the window back.
      INSERT INTO client_send_windows AS w (client_id, window_second, sent)
      VALUES (v_client, floor(extract(epoch FROM clock_timestamp())), 1)
      ON CONFLICT (client_id) DO UPDATE
        SET sent = CASE WHEN w.window_second >= floor(extract(epoch FROM clock_timestamp()))
                        THEN w.sent + 1 ELSE 1 END,
            window_second = greatest(w.window_second,
                                     floor(extract(epoch FROM clock_timestamp())))
        WHERE w.window_second < floor(extract(epoch FROM clock_timestamp()))
           OR w.sent < cl.max_messages_per_second;
      IF NOT FOUND THEN
        q.refusal := 'throttled';
      ELSE
        counted := true;
      END IF;
    END IF;

    IF q.refusal IS NULL THEN
      pos := array_position(b_client, v_client);
      IF pos IS NULL THEN
        SELECT b.id, b.amount, b.currency INTO bal
        FROM balances b WHERE b.client_id = v_client FOR UPDATE;
        IF FOUND THEN
          b_client := b_client || v_client;
          b_id := b_id || bal.id;
          b_currency := b_currency || bal.currency;
          b_amount := b_amount || bal.amount;
          b_debited := b_debited || false;
          pos := array_length(b_client, 1);
        END IF;
      END IF;
      IF pos IS NULL OR b_amount[pos] < q.amount THEN
        q.refusal := 'no-balance';
        IF counted THEN
          UPDATE client_send_windows SET sent = sent - 1 WHERE client_id = v_client;
        END IF;
      END IF;
    END IF;

    IF q.refusal IS NOT NULL THEN
      IF v_key IS NOT NULL THEN
        DELETE FROM idempotency_keys k WHERE k.client_id = v_client AND k.key = v_key;
      END IF;
      RETURN QUERY SELECT i, NULL::jsonb, false, false, q.refusal, q.price_prefix, q.price_name,
        CASE WHEN q.refusal = 'throttled' THEN
          greatest(1, ceil(floor(extract(epoch FROM clock_timestamp())) + 1
                           - extract(epoch FROM clock_timestamp())))::integer
        END, NULL::text;
      CONTINUE;
    END IF;

    b_amount[pos] := b_amount[pos] - q.amount;
    b_debited[pos] := true;
    a_idx := a_idx || i;
    a_id := a_id || gen_random_uuid();
    a_client := a_client || v_client;
    a_owner := a_owner || v_owner;
    a_sender := a_sender || (e->>'sender');
    a_recipient := a_recipient || (e->>'recipient');
    a_body := a_body || (e->>'body');
    a_reference := a_reference || (e->>'reference');
    a_encoding := a_encoding || (e->>'encoding');
    a_segments := a_segments || (e->>'segments')::integer;
    a_amount := a_amount || q.amount;
    a_currency := a_currency || b_currency[pos];
    a_price_per_segment := a_price_per_segment || q.price_per_segment;
    a_prefix := a_prefix || q.price_prefix;
    a_send_at := a_send_at || v_send_at;
    a_actor := a_actor || (e->>'actorUserId')::uuid;
    a_balance_id := a_balance_id || b_id[pos];
    a_balance_after := a_balance_after || b_amount[pos];
    a_key := a_key || v_key;
    a_reply_to := a_reply_to || (e->>'replyTo')::uuid;
    keyed := keyed OR v_key IS NOT NULL;
    scheduled := scheduled OR v_send_at IS NOT NULL;
  END LOOP;

  IF coalesce(array_length(a_idx, 1), 0) = 0 THEN
    RETURN;
  END IF;

  UPDATE balances b SET amount = u.amount, date_updated = now()
  FROM unnest(b_id, b_amount, b_debited) AS u(id, amount, debited)
  WHERE b.id = u.id AND u.debited;

  RETURN QUERY
  WITH written AS (
  INSERT INTO messages (id, client_id, user_id, sender, recipient, body, reference, state,
                        encoding, segments, price, currency, price_per_segment, price_prefix,
                        send_at, reply_to)
  SELECT u.id, u.client_id, u.user_id, u.sender, u.recipient, u.body, u.reference,
         CASE WHEN u.send_at IS NULL THEN 'ACCEPTED' ELSE 'SCHEDULED' END,
         u.encoding, u.segments, u.amount, u.currency, u.price_per_segment, u.price_prefix,
         u.send_at, u.reply_to
  FROM unnest(a_id, a_client, a_owner, a_sender, a_recipient, a_body, a_reference, a_encoding,
              a_segments, a_amount, a_currency, a_price_per_segment, a_prefix, a_send_at,
              a_reply_to)
       AS u(id, client_id, user_id, sender, recipient, body, reference, encoding, segments,
            amount, currency, price_per_segment, price_prefix, send_at, reply_to)
  RETURNING *)
  SELECT u.i, NULL::jsonb, u.replayed, u.conflict, NULL::text, NULL::text, NULL::text,
         NULL::integer,
         -- The API's Message, by its one writer.
         message_json(m::messages)
  FROM (SELECT a.i, a.id, false AS replayed, false AS conflict
        FROM unnest(a_idx, a_id) AS a(i, id)
        UNION ALL
        -- A repeat of a key within the group answers the earlier send's message, replayed.
        SELECT r.i, r.id, true, r.conflict
        FROM unnest(r_idx, r_of, r_conflict) AS r(i, id, conflict)) AS u
  JOIN written m ON m.id = u.id;

  -- In the group's order, so ledger ids grow as each debit was decided (007).
  INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason, actor_user_id,
                              message_id, price_per_segment, price_prefix)
  SELECT u.balance_id, u.client_id, -u.amount, u.balance_after, 'SMS', u.actor, u.message_id,
         u.price_per_segment, u.price_prefix
  FROM unnest(a_balance_id, a_client, a_amount, a_balance_after, a_actor, a_id,
              a_price_per_segment, a_prefix)
       WITH ORDINALITY AS u(balance_id, client_id, amount, balance_after, actor, message_id,
                            price_per_segment, price_prefix, n)
  ORDER BY u.n;

  IF keyed THEN
    UPDATE idempotency_keys k SET message_id = m.id, response = to_jsonb(m)
    FROM unnest(a_id, a_key) AS u(id, key) JOIN messages m ON m.id = u.id
    WHERE u.key IS NOT NULL AND k.client_id = m.client_id AND k.key = u.key;
  END IF;

  -- The messages sent at once get their jobs now (one enqueue_delivery); a scheduled one its
  -- job at its sendAt.
  PERFORM enqueue_delivery(ARRAY(SELECT u.id FROM unnest(a_id, a_send_at) AS u(id, send_at)
                                 WHERE u.send_at IS NULL));
  IF scheduled THEN
    FOR start IN SELECT DISTINCT u.send_at FROM unnest(a_send_at) AS u(send_at)
                 WHERE u.send_at IS NOT NULL LOOP
      PERFORM enqueue_delivery_at(
        ARRAY(SELECT u.id FROM unnest(a_id, a_send_at) AS u(id, send_at) WHERE u.send_at = start),
        start);
    END LOOP;
  END IF;
END
$$;
