import type { UserRole } from '../../../shared/schemas/roles.ts';
import type { Principal } from '../../auth/principal.ts';
import * as repo from '../../auth/repo.ts';
import type { Deps } from '../../deps.ts';
import { notFound, pgCode } from '../../errors.ts';

/** PostgreSQL's foreign_key_violation: the user was deleted between the check and the insert. */
const FOREIGN_KEY_VIOLATION = '23503';

async function requireUser(deps: Deps, userId: string): Promise<void> {
  if (!(await repo.userExists(deps.db, userId))) throw notFound('User');
}

export async function listRoles(
  deps: Deps,
  userId: string,
): Promise<UserRole[]> {
  await requireUser(deps, userId);
  return repo.listUserRoles(deps.db, userId);
}

/**
 * Grants or takes away a catalogue role (holding it already, or not holding it, is not an
 * error). The user's cached credentials carry their roles, so they are dropped and the
 * user's next call sees the change. Answers the user's roles after the change.
 */
export async function changeRole(
  deps: Deps,
  _actor: Principal,
  input: { userId: string; role: string; change: 'add' | 'remove' },
): Promise<UserRole[]> {
  const { userId, role } = input;
  await requireUser(deps, userId);
  try {
    if (input.change === 'add')
      await repo.addUserRoles(deps.db, userId, [role]);
    else await repo.removeUserRole(deps.db, userId, role);
  } catch (error) {
    if (pgCode(error) === FOREIGN_KEY_VIOLATION) throw notFound('User');
    throw error;
  }
  deps.credentials.forget(userId);
  return repo.listUserRoles(deps.db, userId);
}
