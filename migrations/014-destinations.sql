-- Destinations (issue 19; CONTRACT.md "Destinations: prices, permissions and throughput"): the
-- global price list by prefix, and per client the destinations it may reach and how fast it may
-- send. Messages and their ledger entries keep the price they were charged at.

CREATE TABLE prices (
  prefix text PRIMARY KEY CHECK (prefix ~ '^[0-9]{1,15}$'),
  name text NOT NULL CHECK (char_length(name) <= 100),
  price_per_segment numeric(17, 6) NOT NULL CHECK (price_per_segment >= 0),
  blocked boolean NOT NULL DEFAULT false,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_updated timestamptz NOT NULL DEFAULT now()
);

-- allowed_prefixes NULL: every open destination. max_messages_per_second NULL: no limit.
ALTER TABLE clients
  ADD COLUMN allowed_prefixes text[],
  ADD COLUMN max_messages_per_second integer CHECK (max_messages_per_second > 0);

-- price_prefix NULL: the default price (SMS_PRICE). Messages sent before price lists were all
-- charged segments × SMS_PRICE, so their price per segment is price / segments, exactly.
ALTER TABLE messages
  ADD COLUMN price_per_segment numeric(17, 6),
  ADD COLUMN price_prefix text;
UPDATE messages SET price_per_segment = round(price / segments, 6) WHERE segments > 0;
ALTER TABLE balance_ledger
  ADD COLUMN price_per_segment numeric(17, 6),
  ADD COLUMN price_prefix text;
UPDATE balance_ledger l SET price_per_segment = m.price_per_segment
FROM messages m WHERE l.message_id = m.id;

-- ROLE_PRICE_ADMIN is new to the catalogue: as 004 and 013 did, whoever holds
-- ROLE_USERROLE_ADMIN (the bootstrap admin) gets it now.
INSERT INTO user_roles (user_id, role)
SELECT user_id, 'ROLE_PRICE_ADMIN' FROM user_roles WHERE role = 'ROLE_USERROLE_ADMIN'
ON CONFLICT (user_id, role) DO NOTHING;
