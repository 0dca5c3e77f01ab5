-- notify_auth_revoked as it is now; its history before this file: migrations 012, 023.
-- A change to it is a diff of this file (migrations/README.md).

-- A new user's roles no longer notify auth_revoked (012). createUser inserts the user and their
-- roles in one transaction, and the role insert notified the new id at commit. Nothing can be
-- cached for a user who did not exist, but the notification reached every node a moment later,
-- so a node that had verified and cached the user's first sign-in in between dropped the entry
-- again: the next request ran the KDF a second time, and was refused 429 when the account was
-- locked at that address meanwhile (seen on PostgreSQL in tests/api/hardening/auth-hardening).
--
-- A role inserted in the transaction that wrote the user's row (its xmin is this transaction)
-- is skipped: either the row is new (no cached credential can exist), or it was updated here and
-- users_auth_revoked already notified the id. A user row written in a subtransaction has another
-- xmin and still notifies, as before. Changes, updates and deletes of roles notify as before.
CREATE OR REPLACE FUNCTION notify_auth_revoked() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- Each table's fields in its own branch: a record's missing field is an error even in a
  -- condition that another part of the same expression makes false.
  IF TG_TABLE_NAME = 'user_roles' THEN
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('auth_revoked', OLD.user_id::text);
    END IF;
    IF TG_OP = 'UPDATE' OR (TG_OP = 'INSERT' AND NOT EXISTS (
         SELECT 1 FROM users
         WHERE id = NEW.user_id AND xmin = pg_current_xact_id()::xid)) THEN
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

-- Not for the columns that do not reach a cached principal (name, callback settings, and
-- secret_last_used_at, which moves once a minute for every client in use).
CREATE OR REPLACE TRIGGER clients_auth_revoked
  AFTER UPDATE OF user_id, secret_hash, previous_secret_hash, previous_secret_expires_at
  ON clients
  FOR EACH ROW
  WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash
    OR OLD.previous_secret_hash IS DISTINCT FROM NEW.previous_secret_hash
    OR OLD.previous_secret_expires_at IS DISTINCT FROM NEW.previous_secret_expires_at)
  EXECUTE FUNCTION notify_auth_revoked();

CREATE OR REPLACE TRIGGER clients_auth_revoked_delete
  AFTER DELETE ON clients
  FOR EACH ROW EXECUTE FUNCTION notify_auth_revoked();

CREATE OR REPLACE TRIGGER user_roles_auth_revoked
  AFTER INSERT OR UPDATE OR DELETE ON user_roles
  FOR EACH ROW EXECUTE FUNCTION notify_auth_revoked();

-- A user's cached principal holds the whole profile (and the e-mail is the user name).
CREATE OR REPLACE TRIGGER users_auth_revoked
  AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_auth_revoked();
