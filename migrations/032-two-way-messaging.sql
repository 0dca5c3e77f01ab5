-- Two-way messaging (issue 32; CONTRACT.md "Two-way messaging: numbers, inbound SMS and
-- opt-outs"): the numbers staff assign to clients, inbound messages, the parts of concatenated
-- inbound messages still being joined, and opt-outs. Functions live in migrations/functions/.

-- An inbound number (a long number or a short code) held by at most one client.
CREATE TABLE numbers (
  number text PRIMARY KEY CHECK (number ~ '^[0-9]{3,15}$'),
  client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  help_text text,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX numbers_client_idx ON numbers (client_id, number);

-- A message received on a client's number. Like messages, no foreign key to clients: the record
-- outlives a deleted client. provider_message_id is the provider's id (stored once per
-- method and id); null where the provider gives none.
CREATE TABLE inbound_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  client_id uuid NOT NULL,
  method text NOT NULL,
  provider_message_id text,
  from_number text NOT NULL,
  to_number text NOT NULL,
  body text NOT NULL,
  encoding text NOT NULL,
  segments integer NOT NULL CHECK (segments >= 1),
  complete boolean NOT NULL DEFAULT true,
  keyword text CHECK (keyword IN ('STOP', 'START', 'HELP')),
  date_received timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX inbound_messages_provider_id_key
  ON inbound_messages (method, provider_message_id) WHERE provider_message_id IS NOT NULL;
CREATE INDEX inbound_messages_client_idx ON inbound_messages (client_id, date_received, id);
CREATE INDEX inbound_messages_conversation_idx
  ON inbound_messages (client_id, from_number, date_received);

-- Parts of a concatenated inbound message waiting for the others (SMPP UDH / sar_* TLVs,
-- Vonage's concat fields). Keyed by what names one message at the sender's end; joined into
-- inbound_messages when the last part arrives, or stored as they are (complete = false) once
-- the oldest part is 10 minutes old.
CREATE TABLE inbound_parts (
  method text NOT NULL,
  from_number text NOT NULL,
  to_number text NOT NULL,
  reference integer NOT NULL,
  total integer NOT NULL CHECK (total BETWEEN 2 AND 255),
  part_number integer NOT NULL CHECK (part_number BETWEEN 1 AND 255),
  provider_message_id text,
  body text NOT NULL,
  encoding text NOT NULL,
  date_received timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (method, from_number, to_number, reference, total, part_number)
);
CREATE INDEX inbound_parts_age_idx ON inbound_parts (date_received);

-- A remote number that asked a client to stop (a keyword) or that the client opted out itself
-- (the API). One row per client and number: it is what every send decides against.
CREATE TABLE optouts (
  client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  number text NOT NULL,
  source text NOT NULL CHECK (source IN ('keyword', 'api')),
  date_created timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, number)
);
CREATE INDEX optouts_order_idx ON optouts (client_id, date_created, number);

ALTER TABLE clients ADD COLUMN inbound_callback_url text;

-- Outbound side of a conversation: a client's messages to one recipient, in time order.
CREATE INDEX messages_conversation_idx ON messages (client_id, recipient, date_created);

-- ROLE_NUMBER_ADMIN is new to the catalogue: as 004, 013 and 014 did, whoever holds
-- ROLE_USERROLE_ADMIN (the bootstrap admin) gets it now.
INSERT INTO user_roles (user_id, role)
SELECT user_id, 'ROLE_NUMBER_ADMIN' FROM user_roles WHERE role = 'ROLE_USERROLE_ADMIN'
ON CONFLICT (user_id, role) DO NOTHING;
