import type { User } from '../../shared/schemas/users.ts';

/** Who is calling: a user with their e-mail and password, or an API client with its id and secret. */
export type Principal =
  | { kind: 'user'; user: User; roles: string[] }
  | { kind: 'client'; clientId: string; user: User; roles: string[] };
