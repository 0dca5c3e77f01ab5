import { roleChangeRefusal } from '../../../shared/roles.ts';
import type { UserRole } from '../../../shared/schemas/roles.ts';
import { recordAudit } from '../../audit/record.ts';
import * as auth from '../../auth/repo.ts';
import type { Actor } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { forbidden, notFound } from '../../errors.ts';
import * as repo from './repo.ts';

export async function listRoles(
  deps: Deps,
  userId: string,
): Promise<UserRole[]> {
  if (!(await auth.userExists(deps.db, userId))) throw notFound('User');
  return auth.listUserRoles(deps.db, userId);
}

/**
 * Grants or takes away a catalogue role (holding it already, or not holding it, is not an
 * error). The escalation rule comes first: without ROLE_USERROLE_ADMIN, only roles the actor
 * holds, and never on themselves. The change and its audit entry share a transaction, with the
 * user's row locked so the recorded before and after are exact. The user's cached credentials
 * carry their roles, so they are dropped and the user's next call sees the change. Answers the
 * user's roles after the change.
 */
export async function changeRole(
  deps: Deps,
  actor: Actor,
  input: { userId: string; role: string; change: 'add' | 'remove' },
): Promise<UserRole[]> {
  const { userId, role } = input;
  const refusal = roleChangeRefusal(actor.roles, {
    role,
    ownRoles: userId === actor.user.id,
  });
  if (refusal) throw forbidden(refusal);
  const roles = await deps.db.transaction(async (tx) => {
    if (!(await repo.lockUser(tx, userId))) throw notFound('User');
    const before = (await auth.listUserRoles(tx, userId)).map((r) => r.role);
    if (input.change === 'add') await auth.addUserRoles(tx, userId, [role]);
    else await auth.removeUserRole(tx, userId, role);
    const after = await auth.listUserRoles(tx, userId);
    const afterNames = after.map((r) => r.role);
    if (afterNames.join() !== before.join()) {
      await recordAudit(tx, {
        action: input.change === 'add' ? 'role.added' : 'role.removed',
        actor,
        targetType: 'user',
        targetId: userId,
        before: { roles: before },
        after: { roles: afterNames },
      });
    }
    return after;
  });
  deps.credentials.forget(userId);
  return roles;
}
