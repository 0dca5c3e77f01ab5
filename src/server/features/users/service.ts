import { ROLES, SMS_CREATE_ROLE } from '../../../shared/roles.ts';
import type {
  ChangePasswordInput,
  User,
} from '../../../shared/schemas/users.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { changedFields, recordAudit } from '../../audit/record.ts';
import type { Actor } from '../../auth/principal.ts';
import { addUserRoles, findCredentialsByEmail } from '../../auth/repo.ts';
import type { Db } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import {
  conflict,
  isUniqueViolation,
  notFound,
  unprocessable,
} from '../../errors.ts';
import * as repo from './repo.ts';

const EMAIL_TAKEN = 'This email is already registered';

/** Runs an insert or update, turning the unique e-mail index's refusal into a 409. */
async function withUniqueEmail<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN, 'email_taken');
    throw error;
  }
}

/** Creates a user holding `roles`; a newly registered customer gets ROLE_SMS_CREATE. */
export async function createUser(
  db: Db,
  input: repo.ProfileChange & { password: string },
  roles: readonly string[] = [SMS_CREATE_ROLE],
): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  return withUniqueEmail(() =>
    db.transaction(async (tx) => {
      const user = await repo.insertUser(tx, { ...input, passwordHash });
      await addUserRoles(tx, user.id, roles);
      return user;
    }),
  );
}

export async function getUser(deps: Deps, userId: string): Promise<User> {
  const user = await repo.findUserById(deps.db, userId);
  if (!user) throw notFound('User');
  return user;
}

/** Staff's list of users, newest first; `q` searches e-mail, names and organization. */
export async function listUsers(
  deps: Deps,
  filter: { q?: string | undefined },
  page: { count: number; offset: number },
): Promise<{ users: User[]; total: number }> {
  return repo.listUsers(deps.db, filter, page);
}

const PROFILE_FIELDS = [
  'firstName',
  'lastName',
  'organization',
  'email',
] as const;

/** Changes a profile: the actor's own (My User) or, for staff, anyone's; audited when changed. */
export async function updateProfile(
  deps: Deps,
  actor: Actor,
  userId: string,
  change: repo.ProfileChange,
): Promise<User> {
  const user = await withUniqueEmail(() =>
    deps.db.transaction(async (tx) => {
      const before = await repo.findUserById(tx, userId, true);
      if (!before) throw notFound('User');
      const after = await repo.updateUser(tx, userId, change);
      if (!after) throw notFound('User');
      const diff = changedFields(before, after, PROFILE_FIELDS);
      if (diff) {
        await recordAudit(tx, {
          action: 'user.updated',
          actor,
          targetType: 'user',
          targetId: userId,
          ...diff,
        });
      }
      return after;
    }),
  );
  // The cached principal holds the profile, and the e-mail is part of the credentials.
  deps.credentials.forget(userId);
  return user;
}

/** Changes the actor's own password, after checking the current one; audited, never shown. */
export async function changePassword(
  deps: Deps,
  actor: Actor,
  input: ChangePasswordInput,
): Promise<void> {
  const userId = actor.user.id;
  const stored = await repo.findPasswordHash(deps.db, userId);
  if (!stored) throw notFound('User');
  if (!(await verifyPassword(input.currentPassword, stored))) {
    throw unprocessable('Invalid current password', 'wrong_password');
  }
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.transaction(async (tx) => {
    await repo.updatePasswordHash(tx, userId, passwordHash);
    await recordAudit(tx, {
      action: 'user.password_changed',
      actor,
      targetType: 'user',
      targetId: userId,
    });
  });
  deps.credentials.forget(userId);
}

/** Creates the ADMIN_EMAIL user with every role unless a user already has that e-mail. */
export async function ensureBootstrapAdmin(
  db: Db,
  admin: { email: string; password: string } | undefined,
): Promise<void> {
  if (!admin) return;
  if (await findCredentialsByEmail(db, admin.email)) return;
  try {
    await createUser(
      db,
      {
        email: admin.email,
        password: admin.password,
        firstName: 'Admin',
        lastName: '',
        organization: '',
      },
      ROLES,
    );
  } catch (error) {
    // Another server created it at the same moment: that is the idempotent outcome too.
    if ((error as { statusCode?: number }).statusCode !== 409) throw error;
  }
}
