-- Users, their roles, API clients, balances and the append-only ledger of every credit and debit.
-- Money is numeric(15,4): exact, and at most 15 significant digits so the API's JSON numbers
-- carry the exact decimal value.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  password_hash text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  organization text NOT NULL DEFAULT '',
  date_created timestamptz NOT NULL DEFAULT now(),
  date_updated timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_order_idx ON users (date_created, id);

CREATE TABLE user_roles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, role)
);

CREATE TABLE clients (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  secret_hash text NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_updated timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX clients_user_idx ON clients (user_id, date_created, id);
CREATE INDEX clients_order_idx ON clients (date_created, id);

-- A client's default balance has the client's id, which is why the admin card labels it Client ID.
CREATE TABLE balances (
  id uuid PRIMARY KEY,
  client_id uuid NOT NULL UNIQUE REFERENCES clients (id) ON DELETE CASCADE,
  currency text NOT NULL,
  amount numeric(15, 4) NOT NULL DEFAULT 0 CHECK (amount >= 0),
  min_threshold numeric(15, 4) NOT NULL DEFAULT 0,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_updated timestamptz NOT NULL DEFAULT now()
);

-- Append-only: every credit (positive) and debit (negative). No foreign keys, so the history
-- outlives a deleted client.
CREATE TABLE balance_ledger (
  id bigserial PRIMARY KEY,
  balance_id uuid NOT NULL,
  client_id uuid NOT NULL,
  amount numeric(15, 4) NOT NULL,
  balance_after numeric(15, 4) NOT NULL,
  reason text NOT NULL CHECK (reason IN ('FREE_CREDIT', 'SMS')),
  actor_user_id uuid,
  message_id uuid,
  date_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX balance_ledger_balance_idx ON balance_ledger (balance_id, id);

CREATE TABLE route_splits (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  delivery_method text NOT NULL
    CHECK (delivery_method IN ('VONAGE_SMS', 'MELROSE_SMPP', 'WORLD_SPECIAL')),
  weight integer NOT NULL CHECK (weight >= 0),
  date_created timestamptz NOT NULL DEFAULT now(),
  date_updated timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX route_splits_client_idx ON route_splits (client_id, date_created, id);
CREATE INDEX route_splits_user_idx ON route_splits (user_id, date_created, id);

CREATE TABLE messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  client_id uuid NOT NULL,
  user_id uuid NOT NULL,
  sender text NOT NULL,
  recipient text NOT NULL,
  body text NOT NULL,
  reference text NOT NULL DEFAULT '',
  state text NOT NULL,
  encoding text NOT NULL,
  segments integer NOT NULL,
  price numeric(15, 4) NOT NULL,
  currency text NOT NULL,
  date_created timestamptz NOT NULL DEFAULT now(),
  date_updated timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_client_idx ON messages (client_id, date_created, id);
