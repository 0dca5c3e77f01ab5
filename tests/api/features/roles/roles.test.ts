import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminHttp,
  clientHttp,
  createClient,
  registerUser,
  setPrice,
  setRoles,
  uniqueEmail,
  uniquePrefix,
  defaultBalancePath,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const namesOf = (body: { roles: { role: string }[] }) =>
  body.roles.map((r) => r.role);

describe('GET /api/admin/users/{id}/roles', () => {
  it('lists a new customer’s roles under `roles` as {id, role}', async () => {
    const { user } = await registerUser(server.url);
    const answer = await adminHttp(server.url).get(
      `/api/admin/users/${user.id}/roles`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      roles: [{ id: expect.any(String), role: 'ROLE_SMS_CREATE' }],
    });
  });

  it('sorts alphabetically (code-point order, as the catalogue)', async () => {
    const { user } = await registerUser(server.url);
    const roles = [
      'ROLE_USER_ADMIN',
      'ROLE_USERROLE_LIST',
      'ROLE_CLIENT_UPDATE_SECRET',
      'ROLE_CLIENT_UPDATE',
      'ROLE_ROUTE_VIEW',
      'ROLE_DELIVERY_ATTEMPT_LIST',
      'ROLE_DELIVERY_INSTRUCTION_ADMIN',
    ];
    await setRoles(server.url, user.id, roles);
    const answer = await adminHttp(server.url).get(
      `/api/admin/users/${user.id}/roles`,
    );
    expect(namesOf(answer.body)).toEqual([...roles].sort());
    expect(namesOf(answer.body)).toEqual([
      'ROLE_CLIENT_UPDATE',
      'ROLE_CLIENT_UPDATE_SECRET',
      'ROLE_DELIVERY_ATTEMPT_LIST',
      'ROLE_DELIVERY_INSTRUCTION_ADMIN',
      'ROLE_ROUTE_VIEW',
      'ROLE_USERROLE_LIST',
      'ROLE_USER_ADMIN',
    ]);
  });

  it('answers 404 for an unknown user and 400 for a bad id', async () => {
    const admin = adminHttp(server.url);
    expect((await admin.get(`/api/admin/users/${UNKNOWN}/roles`)).status).toBe(
      404,
    );
    expect((await admin.get('/api/admin/users/abc/roles')).status).toBe(400);
  });
});

describe('adding and removing roles', () => {
  it('adds a role and answers the updated list; adding it again changes nothing', async () => {
    const { user } = await registerUser(server.url);
    const admin = adminHttp(server.url);
    const path = `/api/admin/users/${user.id}/roles`;
    const added = await admin.post(`${path}/add`, { role: 'ROLE_CLIENT_LIST' });
    expect(added.status).toBe(200);
    expect(namesOf(added.body)).toEqual([
      'ROLE_CLIENT_LIST',
      'ROLE_SMS_CREATE',
    ]);
    const again = await admin.post(`${path}/add`, { role: 'ROLE_CLIENT_LIST' });
    expect(again.status).toBe(200);
    expect(namesOf(again.body)).toEqual([
      'ROLE_CLIENT_LIST',
      'ROLE_SMS_CREATE',
    ]);
  });

  it('removes a role and answers the updated list', async () => {
    const { user } = await registerUser(server.url);
    const admin = adminHttp(server.url);
    const path = `/api/admin/users/${user.id}/roles`;
    await admin.post(`${path}/add`, { role: 'ROLE_ROUTE_LIST' });
    const removed = await admin.put(`${path}/remove`, {
      role: 'ROLE_SMS_CREATE',
    });
    expect(removed.status).toBe(200);
    expect(namesOf(removed.body)).toEqual(['ROLE_ROUTE_LIST']);
    expect(namesOf((await admin.get(path)).body)).toEqual(['ROLE_ROUTE_LIST']);
  });

  it.each([[''], ['   '], ['ROLE_NOPE'], ['role_user_list'], ['ADMIN']])(
    "refuses the role %j with 400 'Invalid role'",
    async (role) => {
      const { user } = await registerUser(server.url);
      const admin = adminHttp(server.url);
      const path = `/api/admin/users/${user.id}/roles`;
      for (const answer of [
        await admin.post(`${path}/add`, { role }),
        await admin.put(`${path}/remove`, { role }),
      ]) {
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          statusCode: 400,
          error: 'Bad Request',
          code: 'validation_failed',
          message: 'Invalid role',
        });
      }
      expect(namesOf((await admin.get(path)).body)).toEqual([
        'ROLE_SMS_CREATE',
      ]);
    },
  );

  it("refuses a missing or non-string role with 'Invalid role'", async () => {
    const { user } = await registerUser(server.url);
    const admin = adminHttp(server.url);
    for (const body of [{}, { role: null }, { role: 42 }]) {
      const answer = await admin.post(
        `/api/admin/users/${user.id}/roles/add`,
        body,
      );
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Invalid role');
    }
  });

  it('answers 404 for an unknown user', async () => {
    const admin = adminHttp(server.url);
    const role = { role: 'ROLE_CLIENT_LIST' };
    expect(
      (await admin.post(`/api/admin/users/${UNKNOWN}/roles/add`, role)).status,
    ).toBe(404);
    expect(
      (await admin.put(`/api/admin/users/${UNKNOWN}/roles/remove`, role))
        .status,
    ).toBe(404);
  });

  it("applies on the user's very next call (cached credentials are dropped)", async () => {
    const { user, http } = await registerUser(server.url);
    const admin = adminHttp(server.url);
    const path = `/api/admin/users/${user.id}/roles`;
    expect((await http.get('/api/admin/clients')).status).toBe(403); // now cached
    await admin.post(`${path}/add`, { role: 'ROLE_CLIENT_LIST' });
    expect((await http.get('/api/admin/clients')).status).toBe(200);
    expect((await http.get('/api/users/me')).body.roles).toContain(
      'ROLE_CLIENT_LIST',
    );
    await admin.put(`${path}/remove`, { role: 'ROLE_CLIENT_LIST' });
    expect((await http.get('/api/admin/clients')).status).toBe(403);
    expect((await http.get('/api/users/me')).body.roles).not.toContain(
      'ROLE_CLIENT_LIST',
    );
  });
});

const GRANTED_ROLE = 'ROLE_PRICING_VIEW';

/** Every admin call with a body that passes validation, and the role family and verb it needs. */
function adminCalls(ids: {
  userId: string;
  clientId: string;
  splitId: string;
  prefix: string;
}) {
  const { userId, clientId, splitId, prefix } = ids;
  return [
    ['POST', '/api/admin/clients', { userId, name: 'x' }, 'CLIENT', 'CREATE'],
    [
      'PUT',
      `/api/admin/clients/${clientId}`,
      { name: 'x' },
      'CLIENT',
      'UPDATE',
    ],
    [
      'PUT',
      `/api/admin/clients/${clientId}/limits`,
      { maxMessagesPerSecond: 5 },
      'CLIENT',
      'ADMIN',
    ],
    ['GET', '/api/admin/clients', undefined, 'CLIENT', 'LIST'],
    ['GET', `/api/admin/clients/${clientId}`, undefined, 'CLIENT', 'VIEW'],
    [
      'GET',
      `/api/admin/clients/${clientId}/balances/default`,
      undefined,
      'CLIENT',
      'VIEW',
    ],
    [
      'GET',
      `/api/admin/clients/${clientId}/batches`,
      undefined,
      'CLIENT',
      'VIEW',
    ],
    [
      'POST',
      `${defaultBalancePath(clientId)}/freecredit`,
      { amount: 1 },
      'CLIENT',
      'UPDATE',
    ],
    [
      'PUT',
      defaultBalancePath(clientId),
      { minThreshold: 2 },
      'CLIENT',
      'UPDATE',
    ],
    ['GET', '/api/admin/audit', undefined, 'AUDIT', 'LIST'],
    [
      'POST',
      '/api/admin/routes/split',
      { userId, clientId, deliveryMethod: 'VONAGE_SMS' },
      'ROUTE',
      'CREATE',
    ],
    [
      'PUT',
      `/api/admin/routes/split/${splitId}`,
      { deliveryMethod: 'VONAGE_SMS', weight: 5 },
      'ROUTE',
      'UPDATE',
    ],
    ['GET', `/api/admin/routes/split/${splitId}`, undefined, 'ROUTE', 'VIEW'],
    ['GET', '/api/admin/routes/split', undefined, 'ROUTE', 'LIST'],
    [
      'DELETE',
      `/api/admin/routes/split/${splitId}`,
      undefined,
      'ROUTE',
      'DELETE',
    ],
    [
      'PUT',
      `/api/admin/prices/${prefix}`,
      { name: 'x', pricePerSegment: 0.05 },
      'PRICE',
      'ADMIN',
    ],
    ['DELETE', `/api/admin/prices/${prefix}`, undefined, 'PRICE', 'ADMIN'],
    ['GET', '/api/admin/prices.csv', undefined, 'PRICE', 'ADMIN'],
    ['GET', '/api/admin/users', undefined, 'USER', 'LIST'],
    ['GET', `/api/admin/users/${userId}`, undefined, 'USER', 'VIEW'],
    [
      'PUT',
      `/api/admin/users/${userId}`,
      { firstName: 'A', lastName: 'B', organization: '', email: uniqueEmail() },
      'USER',
      'UPDATE',
    ],
    ['GET', `/api/admin/users/${userId}/roles`, undefined, 'USERROLE', 'LIST'],
    [
      'POST',
      `/api/admin/users/${userId}/roles/add`,
      { role: GRANTED_ROLE },
      'USERROLE',
      'CREATE',
    ],
    [
      'PUT',
      `/api/admin/users/${userId}/roles/remove`,
      { role: GRANTED_ROLE },
      'USERROLE',
      'DELETE',
    ],
  ] as const;
}

describe('the role matrix of /api/admin', () => {
  /** A target user with a client and a split, for the calls to act on. */
  async function target() {
    const admin = adminHttp(server.url);
    const { user } = await registerUser(server.url);
    const client = await admin.post('/api/admin/clients', {
      userId: user.id,
      name: 'Shop',
    });
    const split = await admin.post('/api/admin/routes/split', {
      userId: user.id,
      clientId: client.body.id,
      deliveryMethod: 'VONAGE_SMS',
    });
    const prefix = uniquePrefix();
    await setPrice(server.url, prefix, { name: 'Target', pricePerSegment: 1 });
    return {
      userId: user.id as string,
      clientId: client.body.id as string,
      splitId: split.body.id as string,
      prefix,
    };
  }

  it('refuses a plain customer (403) on every admin call, and changes nothing', async () => {
    const ids = await target();
    const { http } = await registerUser(server.url);
    for (const [method, path, body] of adminCalls(ids)) {
      const answer = await http.request(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        code: 'forbidden',
        message: expect.any(String),
      });
    }
    const admin = adminHttp(server.url);
    expect(
      (await admin.get(`/api/admin/routes/split/${ids.splitId}`)).status,
    ).toBe(200);
    expect(
      (await admin.get(`/api/admin/clients/${ids.clientId}/balances/default`))
        .body.amount,
    ).toBe(0);
  });

  it('refuses (401) every admin call without credentials', async () => {
    const ids = await target();
    for (const [method, path, body] of adminCalls(ids)) {
      const answer = await fetch(`${server.url}${path}`, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(answer.status, `${method} ${path}`).toBe(401);
    }
  });

  it('lets ROLE_CLIENT_LIST list clients only', async () => {
    const ids = await target();
    const { user, http } = await registerUser(server.url);
    await setRoles(server.url, user.id, ['ROLE_CLIENT_LIST']);
    expect((await http.get('/api/admin/clients')).status).toBe(200);
    expect((await http.get('/api/admin/users')).status).toBe(403);
    expect(
      (await http.post('/api/admin/clients', { userId: user.id, name: 'x' }))
        .status,
    ).toBe(403);
    expect((await http.get(`/api/admin/clients/${ids.clientId}`)).status).toBe(
      403,
    );
  });

  const matrix = adminCalls({
    userId: '{userId}',
    clientId: '{clientId}',
    splitId: '{id}',
    prefix: '{prefix}',
  }).map(
    ([method, path, , family, verb], index) =>
      [`${method} ${path}`, family, verb, index] as const,
  );
  /** The roles that grant a call: the verb role and the family's ADMIN role, if it has one. */
  const granting = (family: string, verb: string) =>
    family === 'AUDIT'
      ? [`ROLE_${family}_${verb}`]
      : [`ROLE_${family}_${verb}`, `ROLE_${family}_ADMIN`];
  const everyRole = [...new Set(matrix.flatMap(([, f, v]) => granting(f, v)))];
  /*
   * The role the role calls grant and remove: a caller without ROLE_USERROLE_ADMIN may only
   * hand out roles they hold, so every caller holds it. It opens no admin call.
   */
  const GRANTED = GRANTED_ROLE;

  it.each(matrix)(
    '%s needs ROLE_%s_%s or the family ADMIN role (if any), and nothing else grants it',
    async (_label, family, verb, index) => {
      const caller = await registerUser(server.url);
      const attempt = async (roles: string[]) => {
        // Fresh ids per attempt, so deletes and role changes do not disturb the next one.
        const [method, path, body] = adminCalls(await target())[index]!;
        await setRoles(server.url, caller.user.id, [...roles, GRANTED]);
        return (await caller.http.request(method, path, body)).status;
      };
      for (const role of granting(family, verb)) {
        expect(await attempt([role])).toBeLessThan(300);
      }
      const others = everyRole.filter(
        (role) => !granting(family, verb).includes(role),
      );
      expect(await attempt(others)).toBe(403);
    },
  );

  it("refuses an admin's API client credentials on admin calls (403)", async () => {
    const admin = adminHttp(server.url);
    const client = await createClient(admin, 'Admin tool');
    const api = clientHttp(server.url, client);
    expect((await api.get('/api/admin/clients')).status).toBe(403);
    expect((await api.get('/api/admin/users')).status).toBe(403);
  });

  it('lets the bootstrap admin do everything', async () => {
    const admin = adminHttp(server.url);
    for (const [method, path, body] of adminCalls(await target())) {
      const answer = await admin.request(method, path, body);
      expect(answer.status, `${method} ${path}`).toBeLessThan(300);
    }
  });
});

describe('who may grant or remove a role (issue 9: no escalation)', () => {
  const OWN = 'Only a holder of ROLE_USERROLE_ADMIN can change their own roles';
  const UNHELD =
    'Granting or removing a role you do not hold needs ROLE_USERROLE_ADMIN';

  /** A staff member holding exactly `roles`, and a plain customer to act on. */
  async function staffAndTarget(roles: string[]) {
    const staff = await registerUser(server.url);
    await setRoles(server.url, staff.user.id, roles);
    const target = await registerUser(server.url);
    return { staff, target };
  }

  const rolesOf = async (userId: string) =>
    namesOf(
      (await adminHttp(server.url).get(`/api/admin/users/${userId}/roles`))
        .body,
    );

  it('refuses ROLE_USERROLE_CREATE granting herself anything, with 403 and a message', async () => {
    const { staff } = await staffAndTarget(['ROLE_USERROLE_CREATE']);
    const self = `/api/admin/users/${staff.user.id}/roles`;
    for (const role of [
      'ROLE_USER_ADMIN',
      'ROLE_USERROLE_ADMIN',
      'ROLE_CLIENT_ADMIN',
      'ROLE_USERROLE_CREATE',
    ]) {
      const answer = await staff.http.post(`${self}/add`, { role });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        code: 'forbidden',
        message: OWN,
      });
    }
    expect(await rolesOf(staff.user.id)).toEqual(['ROLE_USERROLE_CREATE']);
  });

  it('lets a role be granted to or removed from someone else only if the caller holds it', async () => {
    const { staff, target } = await staffAndTarget([
      'ROLE_USERROLE_CREATE',
      'ROLE_USERROLE_DELETE',
      'ROLE_CLIENT_LIST',
    ]);
    const path = `/api/admin/users/${target.user.id}/roles`;
    const escalate = await staff.http.post(`${path}/add`, {
      role: 'ROLE_USER_ADMIN',
    });
    expect(escalate.status).toBe(403);
    expect(escalate.body.message).toBe(UNHELD);
    expect(
      (await staff.http.post(`${path}/add`, { role: 'ROLE_CLIENT_LIST' }))
        .status,
    ).toBe(200);
    // The target holds ROLE_SMS_CREATE, which the caller does not: it stays.
    const remove = await staff.http.put(`${path}/remove`, {
      role: 'ROLE_SMS_CREATE',
    });
    expect(remove.status).toBe(403);
    expect(remove.body.message).toBe(UNHELD);
    expect(await rolesOf(target.user.id)).toEqual([
      'ROLE_CLIENT_LIST',
      'ROLE_SMS_CREATE',
    ]);
    expect(
      (await staff.http.put(`${path}/remove`, { role: 'ROLE_CLIENT_LIST' }))
        .status,
    ).toBe(200);
    expect(await rolesOf(target.user.id)).toEqual(['ROLE_SMS_CREATE']);
  });

  it('refuses removing her own roles without ROLE_USERROLE_ADMIN', async () => {
    const { staff } = await staffAndTarget([
      'ROLE_USERROLE_DELETE',
      'ROLE_CLIENT_LIST',
    ]);
    const answer = await staff.http.put(
      `/api/admin/users/${staff.user.id}/roles/remove`,
      { role: 'ROLE_CLIENT_LIST' },
    );
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(OWN);
    expect(await rolesOf(staff.user.id)).toEqual([
      'ROLE_CLIENT_LIST',
      'ROLE_USERROLE_DELETE',
    ]);
  });

  it('lets ROLE_USERROLE_ADMIN grant any role, to others and to herself, and remove her own', async () => {
    const { staff, target } = await staffAndTarget(['ROLE_USERROLE_ADMIN']);
    expect(
      (
        await staff.http.post(`/api/admin/users/${target.user.id}/roles/add`, {
          role: 'ROLE_USER_ADMIN',
        })
      ).status,
    ).toBe(200);
    const self = `/api/admin/users/${staff.user.id}/roles`;
    expect(
      (await staff.http.post(`${self}/add`, { role: 'ROLE_CLIENT_ADMIN' }))
        .status,
    ).toBe(200);
    expect(
      (await staff.http.put(`${self}/remove`, { role: 'ROLE_CLIENT_ADMIN' }))
        .status,
    ).toBe(200);
    expect(await rolesOf(staff.user.id)).toEqual(['ROLE_USERROLE_ADMIN']);
  });

  it("gives the console the caller's roles to offer only what may be granted", async () => {
    const { staff } = await staffAndTarget([
      'ROLE_USERROLE_CREATE',
      'ROLE_CLIENT_LIST',
    ]);
    expect((await staff.http.get('/api/users/me')).body.roles).toEqual([
      'ROLE_CLIENT_LIST',
      'ROLE_USERROLE_CREATE',
    ]);
  });
});
