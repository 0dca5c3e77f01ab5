import { createContext, useContext } from 'react';
import {
  canCall,
  rolesGranting,
  type RoleFamily,
  type RoleVerb,
} from '../../shared/roles';

/** What an admin call needs: a role granting `verb` on `family` (the server's `config.role`). */
export interface Access {
  family: RoleFamily;
  verb: RoleVerb;
}

/**
 * The signed-in user's roles, provided by the admin shell once `GET /users/me` has answered.
 * Admin screens ask it before a call, because any 403 logs the user out (spec §8).
 */
export const CallerRolesContext = createContext<readonly string[] | null>(null);

/** True when the signed-in user may make the calls that need `access` (issue 17). */
export function useCanCall(access: Access): boolean {
  const roles = useContext(CallerRolesContext);
  if (!roles) throw new Error('useCanCall is only for admin screens');
  return canCall(roles, access.family, access.verb);
}

/** Why something is not offered: 'Needs ROLE_ROUTE_ADMIN or ROLE_ROUTE_LIST'. */
export function needsRoleText(access: Access): string {
  return `Needs ${rolesGranting(access.family, access.verb).join(' or ')}`;
}
