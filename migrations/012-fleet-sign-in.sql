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

-- Counts one try on every counter of p_keys when each enforced one (p_enforced) is under its
-- limit (p_limits) in its window of p_window_ms, as LoginThrottle's `take`: a refused try is
-- not counted. Answers the milliseconds to wait (0 when counted) and the counters that refused
-- it; when counted, each counter's window start, in p_keys' order (to give the try back).
-- Rows are locked in key order by one upsert, so calls sharing counters never deadlock.
CREATE FUNCTION take_sign_in_attempt(
  p_keys text[], p_limits integer[], p_enforced boolean[], p_window_ms bigint
) RETURNS TABLE (wait_ms bigint, refused_by text[], window_starts bigint[])
LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := (extract(epoch FROM now()) * 1000)::bigint;
BEGIN
  INSERT INTO sign_in_attempts AS a (key, window_start_ms, count)
    SELECT k, now_ms, 0 FROM unnest(p_keys) AS k ORDER BY k
  ON CONFLICT (key) DO UPDATE SET
    window_start_ms = CASE WHEN a.window_start_ms <= now_ms - p_window_ms
                           THEN now_ms ELSE a.window_start_ms END,
    count = CASE WHEN a.window_start_ms <= now_ms - p_window_ms THEN 0 ELSE a.count END;
  SELECT coalesce(max(a.window_start_ms + p_window_ms - now_ms), 0), array_agg(a.key)
    INTO wait_ms, refused_by
  FROM sign_in_attempts a
  JOIN unnest(p_keys, p_limits, p_enforced) AS t(key, lim, enforced) ON a.key = t.key
  WHERE t.enforced AND a.count >= t.lim;
  IF wait_ms > 0 THEN
    RETURN NEXT;
    RETURN;
  END IF;
  refused_by := '{}';
  UPDATE sign_in_attempts a SET count = a.count + 1 WHERE a.key = ANY (p_keys);
  SELECT array_agg(a.window_start_ms ORDER BY k.n) INTO window_starts
  FROM unnest(p_keys) WITH ORDINALITY AS k(key, n)
  JOIN sign_in_attempts a ON a.key = k.key;
  RETURN NEXT;
END
$$;
