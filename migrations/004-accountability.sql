-- Accountability (issue 12): the admin's reason on a ledger entry, the audit log, and indexes
-- for the ledger's history, the daily usage and the admin search.

-- `reason` already names the kind of entry (FREE_CREDIT, SMS, REFUND); the text an admin gives
-- with a free credit goes beside it.
ALTER TABLE balance_ledger ADD COLUMN note text;

-- The kinds the ledger call promises. 003-delivery.sql adds REFUND for failed messages; this
-- states the same set again so the order the two migrations are written in does not matter.
ALTER TABLE balance_ledger DROP CONSTRAINT IF EXISTS balance_ledger_reason_check;
ALTER TABLE balance_ledger ADD CONSTRAINT balance_ledger_reason_check
  CHECK (reason IN ('FREE_CREDIT', 'SMS', 'REFUND'));

-- Usage per day and the history's since/until read a balance's rows by time.
CREATE INDEX balance_ledger_balance_date_idx ON balance_ledger (balance_id, date_created);

-- Append-only record of privileged and security-relevant actions, written in the same
-- transaction as the change. No foreign keys: the record outlives the user or client it names.
-- `before`/`after` hold only the fields that changed, never a password, secret or hash.
CREATE TABLE audit_events (
  id bigserial PRIMARY KEY,
  action text NOT NULL,
  actor_user_id uuid,
  actor_email text,
  target_type text NOT NULL CHECK (target_type IN ('user', 'client')),
  target_id uuid,
  before jsonb,
  after jsonb,
  ip text,
  date_created timestamptz NOT NULL DEFAULT now()
);
-- The log is read newest first (by id), whole or filtered by one of these.
CREATE INDEX audit_events_action_idx ON audit_events (action, id);
CREATE INDEX audit_events_actor_idx ON audit_events (actor_user_id, id);
CREATE INDEX audit_events_target_idx ON audit_events (target_id, id);
CREATE INDEX audit_events_date_idx ON audit_events (date_created);

-- ROLE_AUDIT_LIST is new to the catalogue. A bootstrap admin created before it exists would
-- not hold it; whoever holds ROLE_USERROLE_ADMIN may grant themselves any role anyway, so they
-- get it now (no one gains a power they could not already take).
INSERT INTO user_roles (user_id, role)
SELECT user_id, 'ROLE_AUDIT_LIST' FROM user_roles WHERE role = 'ROLE_USERROLE_ADMIN'
ON CONFLICT (user_id, role) DO NOTHING;

-- Admin lists are newest first.
CREATE INDEX users_newest_idx ON users (date_created DESC, id DESC);
CREATE INDEX clients_newest_idx ON clients (date_created DESC, id DESC);

-- Admin search is a case-insensitive substring, which a b-tree cannot serve: a trigram index
-- can. pg_trgm ships with PostgreSQL's contrib (and is loaded into the embedded database), but
-- a server without contrib, or a role that may not create extensions, must still start: the
-- search then scans, which stays fast for thousands of rows.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable (%): admin search runs without a trigram index', SQLERRM;
END
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    -- The same expressions as the search in users/repo.ts and clients/repo.ts.
    EXECUTE $sql$CREATE INDEX users_search_idx ON users USING gin (
      lower(email || chr(31) || first_name || ' ' || last_name || chr(31) || organization)
      gin_trgm_ops)$sql$;
    EXECUTE $sql$CREATE INDEX clients_search_idx ON clients USING gin (lower(name) gin_trgm_ops)$sql$;
  END IF;
END
$$;
