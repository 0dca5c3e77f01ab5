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
