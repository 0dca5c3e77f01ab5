-- Sign-in state shared by every node on one PostgreSQL (issue 18).
--
-- 1. Revocation: each node caches verified credentials for up to a minute. A change that
-- revokes or alters them (password, e-mail or profile; roles; a client's secret, its grace, its
-- owner; a deleted user or client) notifies channel auth_revoked with the id of the user or
-- client whose cached credentials must go. Triggers, so the notification is part of the
-- transaction that made the change (sent at its commit, never for a rollback) whatever code or
-- SQL made it. Every node LISTENs on a dedicated connection and drops that subject's entries.
CREATE FUNCTION notify_auth_revoked() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- Each table's fields in its own branch: a record's missing field is an error even in a
  -- condition that another part of the same expression makes false.
  IF TG_TABLE_NAME = 'user_roles' THEN
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('auth_revoked', OLD.user_id::text);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('auth_revoked', NEW.user_id::text);
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('auth_revoked', OLD.id::text);
  ELSE
    PERFORM pg_notify('auth_revoked', NEW.id::text);
  END IF;
  RETURN NULL;
END
$$;

-- A user's cached principal holds the whole profile (and the e-mail is the user name).
CREATE TRIGGER users_auth_revoked
  AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_auth_revoked();

CREATE TRIGGER user_roles_auth_revoked
  AFTER INSERT OR UPDATE OR DELETE ON user_roles
  FOR EACH ROW EXECUTE FUNCTION notify_auth_revoked();

-- Not for the columns that do not reach a cached principal (name, callback settings, and
-- secret_last_used_at, which moves once a minute for every client in use).
CREATE TRIGGER clients_auth_revoked
  AFTER UPDATE OF user_id, secret_hash, previous_secret_hash, previous_secret_expires_at
  ON clients
  FOR EACH ROW
  WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash
    OR OLD.previous_secret_hash IS DISTINCT FROM NEW.previous_secret_hash
    OR OLD.previous_secret_expires_at IS DISTINCT FROM NEW.previous_secret_expires_at)
  EXECUTE FUNCTION notify_auth_revoked();

CREATE TRIGGER clients_auth_revoked_delete
  AFTER DELETE ON clients
  FOR EACH ROW EXECUTE FUNCTION notify_auth_revoked();

-- 2. Failed sign-ins counted for every node: one row per counter (a hash of what it counts:
-- an account at an address, an account, an address, wrong client secrets from an address), its
-- window opened by the first try counted (milliseconds of the database's clock, so every node
-- agrees) and the tries counted in it. Rows of ended windows are deleted by the nodes.
CREATE TABLE sign_in_attempts (
  key text PRIMARY KEY,
  window_start_ms bigint NOT NULL,
  count integer NOT NULL
);
CREATE INDEX sign_in_attempts_window_idx ON sign_in_attempts (window_start_ms);
