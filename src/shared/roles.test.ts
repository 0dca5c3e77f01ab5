import { describe, expect, it } from 'vitest';
import { isKnownRole, opensAdminArea, ROLES, rolesGranting } from './roles.ts';

describe('the role catalogue (spec §6)', () => {
  it('holds every family with its verbs, plus ROLE_SMS_CREATE and ROLE_AUDIT_LIST, sorted', () => {
    expect(ROLES).toHaveLength(7 + 6 + 7 + 7 + 6 + 6 + 6 + 6 + 1 + 1);
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
});

describe('opensAdminArea', () => {
  it('is false for a plain customer', () => {
    expect(opensAdminArea([])).toBe(false);
    expect(opensAdminArea(['ROLE_SMS_CREATE'])).toBe(false);
  });

  it('is true for any role of the clients, users, user roles or routes families', () => {
    for (const role of [
      'ROLE_CLIENT_LIST',
      'ROLE_USER_ADMIN',
      'ROLE_USERROLE_DELETE',
      'ROLE_ROUTE_VIEW',
      'ROLE_AUDIT_LIST',
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
