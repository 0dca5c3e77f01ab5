import type { UserRole } from '../../shared/schemas/roles.ts';
import type { User } from '../../shared/schemas/users.ts';
import type { Queryable } from '../db/client.ts';

/**
 * Identity in SQL: users' credentials, API clients' secrets and the roles users hold. Owned by
 * auth so the authentication hook depends on no feature; the users and roles features build
 * on it.
 */

export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  organization: string;
  date_created: Date;
  date_updated: Date;
}

export const USER_COLUMNS =
  'id, email, first_name, last_name, organization, date_created, date_updated';

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    organization: row.organization,
    dateCreated: row.date_created.toISOString(),
    dateUpdated: row.date_updated.toISOString(),
  };
}

/** A user and their password hash, by e-mail in any letter case. */
export async function findCredentialsByEmail(
  q: Queryable,
  email: string,
): Promise<(User & { passwordHash: string }) | undefined> {
  const [row] = await q.query<UserRow & { password_hash: string }>(
    `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE lower(email) = lower($1)`,
    [email],
  );
  return row && { ...toUser(row), passwordHash: row.password_hash };
}

export interface ClientCredentials {
  clientId: string;
  secretHash: string;
  /** The secret a reset replaced, while its grace lasts. */
  previousSecretHash: string | null;
  /** Milliseconds of grace left for the previous secret (by the database's clock). */
  previousSecretMsLeft: number | null;
  /** When the secret was last used, as recorded (at most once a minute). */
  secretLastUsedAt: Date | null;
  owner: User;
}

/** An API client's secret hashes with its owner, in one round trip. */
export async function findClientCredentials(
  q: Queryable,
  clientId: string,
): Promise<ClientCredentials | undefined> {
  const [row] = await q.query<
    UserRow & {
      client_id: string;
      secret_hash: string;
      previous_secret_hash: string | null;
      previous_ms_left: number | null;
      secret_last_used_at: Date | null;
    }
  >(
    `SELECT c.id AS client_id, c.secret_hash,
       CASE WHEN c.previous_secret_expires_at > now() THEN c.previous_secret_hash END
         AS previous_secret_hash,
       CASE WHEN c.previous_secret_expires_at > now()
         THEN (extract(epoch FROM c.previous_secret_expires_at - now()) * 1000)::float8 END
         AS previous_ms_left,
       c.secret_last_used_at,
       u.id, u.email, u.first_name, u.last_name, u.organization, u.date_created, u.date_updated
     FROM clients c JOIN users u ON u.id = c.user_id WHERE c.id = $1`,
    [clientId],
  );
  return (
    row && {
      clientId: row.client_id,
      secretHash: row.secret_hash,
      previousSecretHash: row.previous_secret_hash,
      previousSecretMsLeft: row.previous_ms_left,
      secretLastUsedAt: row.secret_last_used_at,
      owner: toUser(row),
    }
  );
}

/**
 * Records that a client's secret was used, unless that was recorded less than a minute ago
 * (by this node or another). Answers the time now recorded, or undefined when nothing changed.
 */
export async function touchSecretLastUsed(
  q: Queryable,
  clientId: string,
): Promise<Date | undefined> {
  const [row] = await q.query<{ secret_last_used_at: Date }>(
    `UPDATE clients SET secret_last_used_at = now()
     WHERE id = $1
       AND (secret_last_used_at IS NULL OR secret_last_used_at <= now() - interval '1 minute')
     RETURNING secret_last_used_at`,
    [clientId],
  );
  return row?.secret_last_used_at;
}

/** A user's roles, sorted alphabetically. */
export async function listUserRoles(
  q: Queryable,
  userId: string,
): Promise<UserRole[]> {
  return q.query<UserRole>(
    // COLLATE "C": code-point order on every server, the order of the shared ROLES list.
    'SELECT id, role FROM user_roles WHERE user_id = $1 ORDER BY role COLLATE "C"',
    [userId],
  );
}

/** Adds roles a user does not hold yet; holding one already is not an error. */
export async function addUserRoles(
  q: Queryable,
  userId: string,
  roles: readonly string[],
): Promise<void> {
  await q.query(
    `INSERT INTO user_roles (user_id, role) SELECT $1, unnest($2::text[])
     ON CONFLICT (user_id, role) DO NOTHING`,
    [userId, roles],
  );
}

/** Removes a role; returns false when the user did not hold it. */
export async function removeUserRole(
  q: Queryable,
  userId: string,
  role: string,
): Promise<boolean> {
  const rows = await q.query(
    'DELETE FROM user_roles WHERE user_id = $1 AND role = $2 RETURNING id',
    [userId, role],
  );
  return rows.length > 0;
}

/** True when a user with this id exists. */
export async function userExists(q: Queryable, id: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM users WHERE id = $1', [id]);
  return rows.length > 0;
}
