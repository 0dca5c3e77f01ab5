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
} as const;

export type RoleFamily = keyof typeof ROLE_FAMILIES;
export type RoleVerb =
  'ADMIN' | 'LIST' | 'CREATE' | 'VIEW' | 'UPDATE' | 'DELETE';

export const SMS_CREATE_ROLE = 'ROLE_SMS_CREATE';
export const AUDIT_LIST_ROLE = 'ROLE_AUDIT_LIST';

/** Every assignable role name, sorted alphabetically. */
export const ROLES: readonly string[] = [
  ...Object.entries(ROLE_FAMILIES).flatMap(([family, verbs]) =>
    verbs.map((verb) => `ROLE_${family}_${verb}`),
  ),
  SMS_CREATE_ROLE,
  AUDIT_LIST_ROLE,
].sort();

const ROLE_SET = new Set(ROLES);

export function isKnownRole(role: string): boolean {
  return ROLE_SET.has(role);
}

/** The roles any of which grants `verb` on `family`: the family's ADMIN role or the verb role. */
export function rolesGranting(family: RoleFamily, verb: RoleVerb): string[] {
  return verb === 'ADMIN'
    ? [`ROLE_${family}_ADMIN`]
    : [`ROLE_${family}_ADMIN`, `ROLE_${family}_${verb}`];
}

/** The families whose roles open an admin screen (clients, users, their roles, route splits); ROLE_AUDIT_LIST opens the audit log. */
const ADMIN_AREA_FAMILIES: readonly RoleFamily[] = [
  'CLIENT',
  'USER',
  'USERROLE',
  'ROUTE',
];

/**
 * True when the roles open at least one screen of the admin area, which is when the console
 * offers the "Admin" entry. The server still decides every call on its own.
 */
export function opensAdminArea(roles: readonly string[]): boolean {
  return roles.some(
    (role) =>
      role === AUDIT_LIST_ROLE ||
      ADMIN_AREA_FAMILIES.some(
        (family) => isKnownRole(role) && role.startsWith(`ROLE_${family}_`),
      ),
  );
}
