import type { UserRole } from '../../../shared/schemas/roles.ts';
import type { Deps } from '../../deps.ts';
import { notFound, pgCode } from '../../errors.ts';
import { findUserById } from '../users/repo.ts';
import * as repo from './repo.ts';

/** PostgreSQL's foreign_key_violation: the user was deleted between the check and the insert. */
const FOREIGN_KEY_VIOLATION = '23503';

async function requireUser(deps: Deps, userId: string): Promise<void> {
  if (!(await findUserById(deps.db, userId))) throw notFound('User');
}

export async function listRoles(
  deps: Deps,
  userId: string,
): Promise<UserRole[]> {
  await requireUser(deps, userId);
  return repo.listUserRoles(deps.db, userId);
}

/**
 * Grants a catalogue role (holding it already is not an error). The user's cached credentials
 * carry their roles, so they are dropped and the next call sees the change.
 */
export async function addRole(
  deps: Deps,
  userId: string,
  role: string,
): Promise<UserRole[]> {
  await requireUser(deps, userId);
  try {
    await repo.addUserRoles(deps.db, userId, [role]);
  } catch (error) {
    if (pgCode(error) === FOREIGN_KEY_VIOLATION) throw notFound('User');
    throw error;
  }
  deps.credentials.forget(userId);
  return repo.listUserRoles(deps.db, userId);
}

/** Takes a role away (not holding it is not an error), effective on the user's next call. */
export async function removeRole(
  deps: Deps,
  userId: string,
  role: string,
): Promise<UserRole[]> {
  await requireUser(deps, userId);
  await repo.removeUserRole(deps.db, userId, role);
  deps.credentials.forget(userId);
  return repo.listUserRoles(deps.db, userId);
}
