import type { User } from '../../../shared/schemas/users.ts';
import {
  toUser,
  USER_COLUMNS as COLUMNS,
  type UserRow,
} from '../../auth/repo.ts';
import type { Queryable } from '../../db/client.ts';
import { selectPage } from '../../db/paging.ts';
import { containsPattern } from '../../db/search.ts';

export interface NewUser {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  organization: string;
}

export async function insertUser(q: Queryable, user: NewUser): Promise<User> {
  const [row] = await q.query<UserRow>(
    `INSERT INTO users (email, password_hash, first_name, last_name, organization)
     VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [
      user.email,
      user.passwordHash,
      user.firstName,
      user.lastName,
      user.organization,
    ],
  );
  return toUser(row!);
}

/** A user by id; `forUpdate` locks the row until the transaction ends. */
export async function findUserById(
  q: Queryable,
  id: string,
  forUpdate = false,
): Promise<User | undefined> {
  const [row] = await q.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE id = $1 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return row && toUser(row);
}

export async function findPasswordHash(
  q: Queryable,
  id: string,
): Promise<string | undefined> {
  const [row] = await q.query<{ password_hash: string }>(
    'SELECT password_hash FROM users WHERE id = $1',
    [id],
  );
  return row?.password_hash;
}

export interface ProfileChange {
  firstName: string;
  lastName: string;
  organization: string;
  email: string;
}

export async function updateUser(
  q: Queryable,
  id: string,
  change: ProfileChange,
): Promise<User | undefined> {
  const [row] = await q.query<UserRow>(
    `UPDATE users SET first_name = $2, last_name = $3, organization = $4, email = $5,
       date_updated = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, change.firstName, change.lastName, change.organization, change.email],
  );
  return row && toUser(row);
}

export async function updatePasswordHash(
  q: Queryable,
  id: string,
  passwordHash: string,
): Promise<void> {
  await q.query(
    'UPDATE users SET password_hash = $2, date_updated = now() WHERE id = $1',
    [id, passwordHash],
  );
}

/**
 * The text a user search looks in: e-mail, full name and organization, lower case, joined by a
 * control character no search text holds (so a match never spans two fields). The trigram
 * index of migrations/004-accountability.sql is built on this very expression.
 */
const SEARCHED = `lower(email || chr(31) || first_name || ' ' || last_name || chr(31) || organization)`;

/** A page of users, newest first (ties by id); with `q`, those whose fields hold it. */
export async function listUsers(
  q: Queryable,
  filter: { q?: string | undefined },
  page: { count: number; offset: number },
): Promise<{ users: User[]; total: number }> {
  const { items, total } = await selectPage(
    q,
    {
      columns: COLUMNS,
      from: 'users',
      where: `($1::text IS NULL OR ${SEARCHED} LIKE $1)`,
      params: [filter.q ? containsPattern(filter.q) : null],
      orderBy: 'date_created DESC, id DESC',
    },
    page,
    toUser,
  );
  return { users: items, total };
}
