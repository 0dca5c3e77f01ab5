import { describe, expect, it } from 'vitest';
import {
  isKnownRole,
  opensAdminArea,
  OWN_ROLES_REFUSED,
  roleChangeRefusal,
  ROLES,
  canCall,
  rolesGranting,
  UNHELD_ROLE_REFUSED,
} from './roles.ts';

describe('the role catalogue (spec §6)', () => {
  it('holds every family with its verbs, plus ROLE_SMS_CREATE, sorted', () => {
    expect(ROLES).toHaveLength(
      7 + 6 + 7 + 7 + 6 + 6 + 6 + 6 + 1 + 1 + 1 + 1 + 1,
    );
    expect(ROLES).toContain('ROLE_AUDIT_LIST');
    expect(ROLES).toContain('ROLE_PRICE_ADMIN');
    expect(ROLES).toContain('ROLE_NUMBER_ADMIN');
    expect(ROLES).not.toContain('ROLE_AUDIT_ADMIN');
    expect(ROLES).toContain('ROLE_USER_UPDATE_PASSWORD');
    expect(ROLES).toContain('ROLE_CLIENT_UPDATE_SECRET');
    expect(ROLES).toContain('ROLE_MESSAGE_UPDATE_STATE');
    expect(ROLES).toContain('ROLE_DELIVERY_ATTEMPT_DELETE');
    expect(ROLES).toContain('ROLE_SMS_CREATE');
    expect(ROLES).toContain('ROLE_AUDIT_LIST');
    expect([...ROLES].sort()).toEqual(ROLES);
    expect(isKnownRole('ROLE_PRICING_VIEW')).toBe(true);
    expect(isKnownRole('ROLE_NOPE')).toBe(false);
  });

  it('an admin call is granted by the family ADMIN role or the verb role', () => {
    expect(rolesGranting('USER', 'LIST')).toEqual([
      'ROLE_USER_ADMIN',
      'ROLE_USER_LIST',
    ]);
    expect(rolesGranting('ROUTE', 'ADMIN')).toEqual(['ROLE_ROUTE_ADMIN']);
  });

  it('the Operations screen opens with ROLE_OPERATIONS_VIEW alone: its family has no ADMIN role', () => {
    expect(rolesGranting('OPERATIONS', 'VIEW')).toEqual([
      'ROLE_OPERATIONS_VIEW',
    ]);
    expect(ROLES).toContain('ROLE_OPERATIONS_VIEW');
    expect(ROLES).not.toContain('ROLE_OPERATIONS_ADMIN');
  });

  it('the audit log is read with ROLE_AUDIT_LIST alone: its family has no ADMIN role', () => {
    expect(rolesGranting('AUDIT', 'LIST')).toEqual(['ROLE_AUDIT_LIST']);
  });
});

describe('canCall', () => {
  const viewer = [
    'ROLE_CLIENT_LIST',
    'ROLE_CLIENT_VIEW',
    'ROLE_USER_LIST',
    'ROLE_USER_VIEW',
  ];

  it('holds for the verb role or the family ADMIN role, and for nothing else', () => {
    expect(canCall(viewer, 'CLIENT', 'VIEW')).toBe(true);
    expect(canCall(viewer, 'CLIENT', 'UPDATE')).toBe(false);
    expect(canCall(viewer, 'ROUTE', 'LIST')).toBe(false);
    expect(canCall(['ROLE_ROUTE_ADMIN'], 'ROUTE', 'LIST')).toBe(true);
    expect(canCall(['ROLE_ROUTE_LIST'], 'ROUTE', 'ADMIN')).toBe(false);
    expect(canCall([], 'AUDIT', 'LIST')).toBe(false);
  });
});

describe('opensAdminArea', () => {
  it('is false for a plain customer', () => {
    expect(opensAdminArea([])).toBe(false);
    expect(opensAdminArea(['ROLE_SMS_CREATE'])).toBe(false);
  });

  it('is true for any role of the clients, users, user roles, routes or audit families', () => {
    for (const role of [
      'ROLE_AUDIT_LIST',
      'ROLE_CLIENT_LIST',
      'ROLE_USER_ADMIN',
      'ROLE_USERROLE_DELETE',
      'ROLE_ROUTE_VIEW',
      'ROLE_AUDIT_LIST',
      'ROLE_OPERATIONS_VIEW',
    ]) {
      expect(opensAdminArea(['ROLE_SMS_CREATE', role]), role).toBe(true);
    }
  });

  it('is false for roles that open no admin screen, and for unknown names', () => {
    expect(opensAdminArea(['ROLE_PRICING_ADMIN', 'ROLE_MESSAGE_LIST'])).toBe(
      false,
    );
    expect(opensAdminArea(['ROLE_CLIENT_', 'ROLE_CLIENTELE_LIST'])).toBe(false);
  });
});

describe('roleChangeRefusal (who may grant or remove a role)', () => {
  it('lets a ROLE_USERROLE_ADMIN holder change any role, their own included', () => {
    const admin = ['ROLE_USERROLE_ADMIN'];
    expect(
      roleChangeRefusal(admin, { role: 'ROLE_USER_ADMIN', ownRoles: false }),
    ).toBeNull();
    expect(
      roleChangeRefusal(admin, { role: 'ROLE_CLIENT_ADMIN', ownRoles: true }),
    ).toBeNull();
  });

  it('lets others grant or remove only roles they hold, never on themselves', () => {
    const creator = ['ROLE_USERROLE_CREATE', 'ROLE_CLIENT_LIST'];
    expect(
      roleChangeRefusal(creator, { role: 'ROLE_CLIENT_LIST', ownRoles: false }),
    ).toBeNull();
    expect(
      roleChangeRefusal(creator, { role: 'ROLE_USER_ADMIN', ownRoles: false }),
    ).toBe(UNHELD_ROLE_REFUSED);
    expect(
      roleChangeRefusal(creator, { role: 'ROLE_CLIENT_LIST', ownRoles: true }),
    ).toBe(OWN_ROLES_REFUSED);
  });
});
