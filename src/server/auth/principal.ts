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

/** Who is calling, as verified (and cached) by authentication. */
export type Principal = UserPrincipal | ClientPrincipal;

/**
 * Who is calling and from which address: what services that change data take as `actor`, and
 * what the audit records. Set per request as `request.actor` by the scopes, never cached (the cached principal
 * serves every address its credentials come from).
 */
export type Actor = Principal & { ip: string };
