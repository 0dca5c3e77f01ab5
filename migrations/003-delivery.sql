-- Delivery: every accepted SMS gets a job on the durable queue (pg-boss, schema pgboss) in the
-- same transaction as its debit; workers route it over the client's splits, record every
-- attempt, apply receipts, fail over, and refund a message that no method took, exactly once.

ALTER TABLE messages
  -- Method of the latest attempt (null until routed); simulated: that method went to the simulator.
  ADD COLUMN delivery_method text,
  ADD COLUMN simulated boolean NOT NULL DEFAULT false,
  -- The methods to try, in order, fixed when the message is first routed (chosen split first,
  -- then the other methods of the client's splits with weight > 0).
  ADD COLUMN route text[];

-- Every try of a message on a method. state: SUBMITTED (taken), then the receipt's final word
-- (DELIVERED, UNDELIVERED, EXPIRED, REJECTED); REFUSED (permanent refusal at submit) or FAILED
-- (transient error at submit).
CREATE TABLE message_attempts (
  id bigserial PRIMARY KEY,
  message_id uuid NOT NULL,
  method text NOT NULL,
  state text NOT NULL,
  provider_message_id text,
  parts integer NOT NULL DEFAULT 0,
  error text,
  simulated boolean NOT NULL DEFAULT false,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_updated timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_attempts_message_idx ON message_attempts (message_id, id);

-- One row per provider message id (one per part). It is also where receipts for ids not known
-- yet wait: a receipt can overtake the submit's answer, or reach another node. Whichever of the
-- submit's record and the receipt comes second finds the other on this row (the primary key
-- serialises them), and the message is settled then.
CREATE TABLE message_parts (
  method text NOT NULL,
  provider_message_id text NOT NULL,
  message_id uuid,
  attempt_id bigint,
  state text,
  error text,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_receipt timestamptz,
  PRIMARY KEY (method, provider_message_id)
);
CREATE INDEX message_parts_attempt_idx ON message_parts (attempt_id);
-- Receipts no submit claimed (yet): kept a week, then removed by the workers' housekeeping.
CREATE INDEX message_parts_unclaimed_idx ON message_parts (date_created) WHERE message_id IS NULL;

-- Refunds: a FAILED message's price comes back through the ledger, and this index makes
-- "exactly once" a property of the data rather than of the code paths that may race.
ALTER TABLE balance_ledger DROP CONSTRAINT balance_ledger_reason_check;
ALTER TABLE balance_ledger ADD CONSTRAINT balance_ledger_reason_check
  CHECK (reason IN ('FREE_CREDIT', 'SMS', 'REFUND'));
CREATE UNIQUE INDEX balance_ledger_refund_once ON balance_ledger (message_id)
  WHERE reason = 'REFUND';

-- Idempotent sends: the first answer to a client's Idempotency-Key, for 24 hours.
CREATE TABLE idempotency_keys (
  client_id uuid NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  message_id uuid,
  response jsonb,
  date_created timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (date_created);

-- The delivery job of a message, inserted straight into pg-boss's job table with the queue's own
-- settings so the accept path stays one statement. Written against pg-boss 12's schema (the
-- version is pinned in package.json); the queue is created by the server at start, before any
-- send. PL/pgSQL resolves the table at call time, so this migration does not need pg-boss yet.
CREATE FUNCTION enqueue_delivery(p_message_ids uuid[], p_delay_seconds integer DEFAULT 0)
RETURNS void
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
  -- Straight into the queue's partition (job_common unless the queue has its own): routing a row
  -- through the partitioned parent cost about as much as the rest of a send.
  EXECUTE format(
    'INSERT INTO pgboss.%I (id, name, data, priority, start_after, expire_seconds,
                            deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff,
                            retry_delay_max, policy, heartbeat_seconds)
     SELECT gen_random_uuid(), $1, jsonb_build_object(''messageId'', m.id), 0,
            now() + $2 * interval ''1s'', $3, $4,
            now() + $2 * interval ''1s'' + $5 * interval ''1s'',
            $6, $7, $8, $9, $10, $11
     FROM unnest($12::uuid[]) AS m(id)', q.table_name)
  USING q.name, p_delay_seconds, q.expire_seconds, q.deletion_seconds, q.retention_seconds,
        q.retry_limit, q.retry_delay, q.retry_backoff, q.retry_delay_max, q.policy,
        q.heartbeat_seconds, p_message_ids;
END
$$;

-- One send as send_sms did, plus the optional idempotency key (the caller queues the job). With a key: the
-- first request inserts the key's row (a racing second one waits on it, then finds it taken and
-- gets the stored answer); a refused send (unknown client, short balance) leaves no key behind.
-- Returns the message, and `replayed` true when it is the stored answer of an earlier request;
-- `conflict` true when the key was used with another request.
DROP FUNCTION send_sms(uuid, uuid, numeric, text, text, text, text, text, integer, uuid);
CREATE FUNCTION accept_sms(
  p_client_id uuid,
  p_owner_id uuid,
  p_price numeric,
  p_sender text,
  p_recipient text,
  p_body text,
  p_reference text,
  p_encoding text,
  p_segments integer,
  p_actor_user_id uuid,
  p_idempotency_key text DEFAULT NULL,
  p_request_hash text DEFAULT NULL
) RETURNS TABLE (message jsonb, replayed boolean, conflict boolean)
LANGUAGE plpgsql AS $$
DECLARE
  debit record;
  m messages;
  stored idempotency_keys;
BEGIN
  IF p_idempotency_key IS NOT NULL THEN
    -- Only the owner's client may claim a key (another user's id must look unknown).
    PERFORM 1 FROM clients WHERE id = p_client_id AND user_id = p_owner_id;
    IF NOT FOUND THEN
      RETURN;
    END IF;
    INSERT INTO idempotency_keys AS k (client_id, key, request_hash)
    VALUES (p_client_id, p_idempotency_key, p_request_hash)
    ON CONFLICT (client_id, key) DO UPDATE
      SET request_hash = excluded.request_hash, message_id = NULL, response = NULL,
          date_created = now()
      WHERE k.date_created < now() - interval '24 hours';
    IF NOT FOUND THEN
      SELECT * INTO stored FROM idempotency_keys
      WHERE client_id = p_client_id AND key = p_idempotency_key;
      RETURN QUERY SELECT stored.response, true, stored.request_hash <> p_request_hash;
      RETURN;
    END IF;
  END IF;

  UPDATE balances b SET amount = b.amount - p_price, date_updated = now()
  FROM clients c
  WHERE b.client_id = p_client_id AND c.id = b.client_id AND c.user_id = p_owner_id
    AND b.amount >= p_price
  RETURNING b.id, b.client_id, b.amount, b.currency, c.user_id INTO debit;
  IF NOT FOUND THEN
    IF p_idempotency_key IS NOT NULL THEN
      DELETE FROM idempotency_keys WHERE client_id = p_client_id AND key = p_idempotency_key;
    END IF;
    RETURN;
  END IF;
  INSERT INTO messages (client_id, user_id, sender, recipient, body, reference, state, encoding,
                        segments, price, currency)
  VALUES (debit.client_id, debit.user_id, p_sender, p_recipient, p_body, p_reference, 'ACCEPTED',
          p_encoding, p_segments, p_price, debit.currency)
  RETURNING * INTO m;
  INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason, actor_user_id,
                              message_id)
  VALUES (debit.id, debit.client_id, -p_price, debit.amount, 'SMS', p_actor_user_id, m.id);
  IF p_idempotency_key IS NOT NULL THEN
    UPDATE idempotency_keys SET message_id = m.id, response = to_jsonb(m)
    WHERE client_id = p_client_id AND key = p_idempotency_key;
  END IF;
  RETURN QUERY SELECT to_jsonb(m), false, false;
END
$$;

-- Sends of concurrent requests, accepted together in one statement (one transaction, one
-- commit): [{clientId, ownerId, price, sender, recipient, body, reference, encoding, segments,
-- actorUserId, key, hash}], each as accept_sms, then one delivery job per accepted message,
-- all in this same transaction. Returns one row per element (by its index from 1) that was
-- accepted or replayed; an element without a row was refused and wrote nothing.
CREATE FUNCTION send_sms_batch(p jsonb)
RETURNS TABLE (idx integer, message jsonb, replayed boolean, conflict boolean)
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
                               (e->>'price')::numeric, e->>'sender', e->>'recipient',
                               e->>'body', e->>'reference', e->>'encoding',
                               (e->>'segments')::integer, (e->>'actorUserId')::uuid,
                               e->>'key', e->>'hash')
    LOOP
      IF NOT r.replayed THEN
        accepted := accepted || (r.message->>'id')::uuid;
      END IF;
      RETURN QUERY SELECT i, r.message, r.replayed, r.conflict;
    END LOOP;
  END LOOP;
  PERFORM enqueue_delivery(accepted);
END
$$;

-- Records the outcomes of submits, a batch at once. Each element:
-- {messageId, method, state: SUBMITTED|REFUSED|FAILED, providerMessageIds: [..], error,
--  simulated}. A SUBMITTED outcome moves an ACCEPTED message to SUBMITTED and claims its parts,
-- taking any receipt that was already waiting for them. Every outcome makes its method the
-- message's deliveryMethod (the method of the latest attempt), unless the message is final, and
-- fixes the message's route at its first attempt. Then p_failed: FAILED and refunded.
CREATE FUNCTION record_attempts(p jsonb, p_failed uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  settle uuid[];
BEGIN
  -- Set-based, a handful of statements per batch whatever its size: the attempt ids are drawn
  -- first so that parts can name their attempt without joining back.
  WITH o AS MATERIALIZED (
    SELECT x.ord, nextval('message_attempts_id_seq') AS attempt_id,
           (x.e->>'messageId')::uuid AS message_id, x.e->>'method' AS method,
           x.e->>'state' AS state, x.e->>'error' AS error,
           COALESCE((x.e->>'simulated')::boolean, false) AS simulated,
           ARRAY(SELECT jsonb_array_elements_text(COALESCE(x.e->'providerMessageIds', '[]'))) AS ids,
           ARRAY(SELECT jsonb_array_elements_text(COALESCE(x.e->'route', '[]'))) AS route
    FROM jsonb_array_elements(p) WITH ORDINALITY AS x(e, ord)
  ), attempts AS (
    INSERT INTO message_attempts (id, message_id, method, state, provider_message_id, parts,
                                  error, simulated)
    SELECT attempt_id, message_id, method, state, NULLIF(array_to_string(ids, ','), ''),
           cardinality(ids), error, simulated
    FROM o ORDER BY ord
  ), parts AS (
    INSERT INTO message_parts AS mp (method, provider_message_id, message_id, attempt_id)
    SELECT o.method, pid, o.message_id, o.attempt_id
    FROM o, unnest(o.ids) AS pid WHERE o.state = 'SUBMITTED'
    ON CONFLICT (method, provider_message_id) DO UPDATE
      SET message_id = excluded.message_id, attempt_id = excluded.attempt_id
      WHERE mp.message_id IS NULL
  ), latest AS (
    SELECT DISTINCT ON (message_id) message_id, method, simulated, route,
           bool_or(state = 'SUBMITTED') OVER (PARTITION BY message_id) AS submitted
    FROM o ORDER BY message_id, ord DESC
  ), updated AS (
    UPDATE messages m SET
      delivery_method = l.method,
      simulated = l.simulated,
      route = COALESCE(m.route, NULLIF(l.route, '{}')),
      state = CASE WHEN l.submitted AND m.state = 'ACCEPTED' THEN 'SUBMITTED' ELSE m.state END,
      date_updated = now()
    FROM latest l
    WHERE m.id = l.message_id AND m.state IN ('ACCEPTED', 'SUBMITTED')
  )
  SELECT array_agg(message_id) INTO settle FROM latest WHERE submitted;
  IF settle IS NOT NULL THEN
    PERFORM settle_messages(settle);
  END IF;
  IF array_length(p_failed, 1) > 0 THEN
    PERFORM fail_messages(p_failed);
  END IF;
END
$$;

-- Applies receipts, a batch at once: [{method, providerMessageId, state, error}]. The first
-- receipt of a part is kept (a duplicate or late one changes nothing); a receipt for an unknown
-- id waits on its part row for the submit's record. Returns how many receipts were new.
CREATE FUNCTION apply_receipts(p jsonb) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  touched uuid[];
  fresh integer;
BEGIN
  WITH r AS (
    SELECT DISTINCT ON (x.method, x."providerMessageId") x.*
    FROM jsonb_to_recordset(p) AS x(method text, "providerMessageId" text, state text, error text)
  ), up AS (
    INSERT INTO message_parts AS mp (method, provider_message_id, state, error, date_receipt)
    SELECT method, "providerMessageId", state, error, now() FROM r
    ON CONFLICT (method, provider_message_id) DO UPDATE
      SET state = excluded.state, error = excluded.error, date_receipt = now()
      WHERE mp.state IS NULL
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

-- Moves SUBMITTED messages whose latest submitted attempt has a receipt for every part to
-- their final state: DELIVERED when every part was delivered, else the first other final word.
-- Messages in a final state are never touched.
CREATE FUNCTION settle_messages(p_ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH latest AS (
    SELECT DISTINCT ON (a.message_id) a.message_id, a.id, a.parts
    FROM message_attempts a
    WHERE a.message_id = ANY(p_ids) AND a.state = 'SUBMITTED'
    ORDER BY a.message_id, a.id DESC
  ), verdict AS (
    SELECT l.message_id, l.id AS attempt_id,
           CASE WHEN bool_and(mp.state = 'DELIVERED') THEN 'DELIVERED'
                ELSE (array_agg(mp.state ORDER BY mp.date_receipt)
                        FILTER (WHERE mp.state <> 'DELIVERED'))[1] END AS state,
           (array_agg(mp.error ORDER BY mp.date_receipt)
              FILTER (WHERE mp.state <> 'DELIVERED'))[1] AS error
    FROM latest l JOIN message_parts mp ON mp.attempt_id = l.id
    WHERE mp.state IS NOT NULL
    GROUP BY l.message_id, l.id, l.parts
    HAVING count(*) >= l.parts
  ), attempts AS (
    UPDATE message_attempts a SET state = v.state, error = v.error, date_updated = now()
    FROM verdict v WHERE a.id = v.attempt_id AND a.state = 'SUBMITTED'
  )
  UPDATE messages m SET state = v.state, date_updated = now()
  FROM verdict v WHERE m.id = v.message_id AND m.state = 'SUBMITTED';
END
$$;

-- Ends messages no method took: FAILED, and the price back on the balance with its ledger row.
-- The refund row's unique index decides who refunds when failures race; the loser changes
-- nothing. Returns the ids refunded now.
CREATE FUNCTION fail_messages(p_ids uuid[]) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  m record;
  ledger_id bigint;
  credited record;
BEGIN
  FOR m IN
    UPDATE messages SET state = 'FAILED', date_updated = now()
    WHERE id = ANY(p_ids) AND state = 'ACCEPTED'
    RETURNING id, client_id, price
  LOOP
    INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason, message_id)
    VALUES (m.client_id, m.client_id, m.price, 0, 'REFUND', m.id)
    ON CONFLICT (message_id) WHERE reason = 'REFUND' DO NOTHING
    RETURNING id INTO ledger_id;
    CONTINUE WHEN ledger_id IS NULL;
    UPDATE balances SET amount = amount + m.price, date_updated = now()
    WHERE client_id = m.client_id RETURNING id, amount INTO credited;
    IF FOUND THEN
      UPDATE balance_ledger SET balance_id = credited.id, balance_after = credited.amount
      WHERE id = ledger_id;
      RETURN NEXT m.id;
    ELSE
      -- The client (and its balance) was deleted meanwhile: there is nothing to give back to.
      DELETE FROM balance_ledger WHERE id = ledger_id;
    END IF;
  END LOOP;
END
$$;

-- What the workers write, a batch at once in one statement: submit outcomes (with the messages no
-- method took), then receipts.
CREATE FUNCTION record_delivery(p_outcomes jsonb, p_failed uuid[], p_receipts jsonb)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_array_length(p_outcomes) > 0 OR cardinality(p_failed) > 0 THEN
    PERFORM record_attempts(p_outcomes, p_failed);
  END IF;
  IF jsonb_array_length(p_receipts) > 0 THEN
    PERFORM apply_receipts(p_receipts);
  END IF;
END
$$;
