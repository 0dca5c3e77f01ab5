import type { FastifyRequest } from 'fastify';
import { canCall, type RoleFamily, type RoleVerb } from '../../shared/roles.ts';
import { forbidden } from '../errors.ts';

/** The role a route of the admin scope needs, declared in its `config.role`. */
export interface RoleRequirement {
  family: RoleFamily;
  verb: RoleVerb;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    role?: RoleRequirement;
  }
}

/** True when the roles hold the family's ADMIN role or the verb role: the console's rule too. */
export function grants(
  roles: readonly string[],
  need: RoleRequirement,
): boolean {
  return canCall(roles, need.family, need.verb);
}

/**
 * onRequest hook of the admin scope, after authentication. A route without a declared role is
 * refused, so forgetting to declare one cannot open a route to every user.
 */
export async function requireRole(request: FastifyRequest): Promise<void> {
  const principal = request.principal;
  const need = request.routeOptions.config.role;
  if (principal?.kind !== 'user' || !need || !grants(principal.roles, need)) {
    request.log.info(
      { userId: principal?.user.id, need },
      'admin call refused',
    );
    throw forbidden();
  }
}
