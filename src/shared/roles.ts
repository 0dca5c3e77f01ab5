/** The catalogue of roles an admin can assign (spec §6). */

const VERBS = ['ADMIN', 'LIST', 'CREATE', 'VIEW', 'UPDATE', 'DELETE'] as const;

export const ROLE_FAMILIES = {
  USER: [...VERBS, 'UPDATE_PASSWORD'],
  USERROLE: VERBS,
  CLIENT: [...VERBS, 'UPDATE_SECRET'],
  MESSAGE: [...VERBS, 'UPDATE_STATE'],
  DELIVERY_INSTRUCTION: VERBS,
  DELIVERY_ATTEMPT: VERBS,
  ROUTE: VERBS,
  PRICING: VERBS,
  // Reading the audit log: there is nothing to create, change or delete there (issue 12).
  AUDIT: ['LIST'],
  // The Operations screen, live delivery health: read only (issue 18).
  OPERATIONS: ['VIEW'],
  // The price list by destination (issue 19): kept by staff as a whole.
  PRICE: ['ADMIN'],
  // Inbound numbers assigned to clients (issue 32): kept by staff as a whole.
  NUMBER: ['ADMIN'],
} as const;

export type RoleFamily = keyof typeof ROLE_FAMILIES;
export type RoleVerb =
  'ADMIN' | 'LIST' | 'CREATE' | 'VIEW' | 'UPDATE' | 'DELETE';

export const SMS_CREATE_ROLE = 'ROLE_SMS_CREATE';
export const AUDIT_LIST_ROLE = 'ROLE_AUDIT_LIST';
export const PRICE_ADMIN_ROLE = 'ROLE_PRICE_ADMIN';
export const NUMBER_ADMIN_ROLE = 'ROLE_NUMBER_ADMIN';

/** Every assignable role name, sorted alphabetically. */
export const ROLES: readonly string[] = [
  ...Object.entries(ROLE_FAMILIES).flatMap(([family, verbs]) =>
    verbs.map((verb) => `ROLE_${family}_${verb}`),
  ),
  SMS_CREATE_ROLE,
].sort();

const ROLE_SET = new Set(ROLES);

export function isKnownRole(role: string): boolean {
  return ROLE_SET.has(role);
}

/**
 * The roles any of which grants `verb` on `family`: the family's ADMIN role or the verb role,
 * as far as the catalogue holds them (the AUDIT family has no ADMIN role).
 */
export function rolesGranting(family: RoleFamily, verb: RoleVerb): string[] {
  const candidates =
    verb === 'ADMIN'
      ? [`ROLE_${family}_ADMIN`]
      : [`ROLE_${family}_ADMIN`, `ROLE_${family}_${verb}`];
  return candidates.filter(isKnownRole);
}

/**
 * True when `roles` hold a role granting `verb` on `family`: what the server's role check asks
 * of an admin call. The console asks it before a call, since a refused call logs the user out.
 */
export function canCall(
  roles: readonly string[],
  family: RoleFamily,
  verb: RoleVerb,
): boolean {
  return rolesGranting(family, verb).some((role) => roles.includes(role));
}

/**
 * The families whose roles open an admin screen (clients, users, their roles, route splits,
 * the audit log, operations, prices, numbers).
 */
const ADMIN_AREA_FAMILIES: readonly RoleFamily[] = [
  'CLIENT',
  'USER',
  'USERROLE',
  'ROUTE',
  'AUDIT',
  'OPERATIONS',
  'PRICE',
  'NUMBER',
];

/**
 * True when the roles open at least one screen of the admin area, which is when the console
 * offers the "Admin" entry. The server still decides every call on its own.
 */
export function opensAdminArea(roles: readonly string[]): boolean {
  return roles.some((role) =>
    ADMIN_AREA_FAMILIES.some(
      (family) => isKnownRole(role) && role.startsWith(`ROLE_${family}_`),
    ),
  );
}

/** Holds every power over roles: granting any role, and changing one's own. */
export const USERROLE_ADMIN_ROLE = 'ROLE_USERROLE_ADMIN';

export const OWN_ROLES_REFUSED =
  'Only a holder of ROLE_USERROLE_ADMIN can change their own roles';
export const UNHELD_ROLE_REFUSED =
  'Granting or removing a role you do not hold needs ROLE_USERROLE_ADMIN';

/**
 * The escalation rule (issue 9): granting or removing a role the caller does not hold needs
 * ROLE_USERROLE_ADMIN, and only its holders change their own roles. Answers why a change is
 * refused, or null when it is allowed. The server enforces it; the console uses it to offer
 * only what the caller may grant.
 */
export function roleChangeRefusal(
  callerRoles: readonly string[],
  change: { role: string; ownRoles: boolean },
): string | null {
  if (callerRoles.includes(USERROLE_ADMIN_ROLE)) return null;
  if (change.ownRoles) return OWN_ROLES_REFUSED;
  if (!callerRoles.includes(change.role)) return UNHELD_ROLE_REFUSED;
  return null;
}
