import type { UserRole } from '../../../shared/schemas/roles.ts';
import type { Queryable } from '../../db/client.ts';

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
