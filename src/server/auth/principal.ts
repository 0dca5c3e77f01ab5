import type { User } from '../../shared/schemas/users.ts';

/** A user calling with their e-mail and password. */
export type UserPrincipal = { kind: 'user'; user: User; roles: string[] };

/** An API client calling with its id and secret, acting for its owner with the owner's roles. */
export type ClientPrincipal = {
  kind: 'client';
  clientId: string;
  user: User;
  roles: string[];
};

/** Who is calling; services that change data take it as the actor (the audit records it). */
export type Principal = UserPrincipal | ClientPrincipal;
