import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../support/eventually.ts';
import { httpClient, type HttpClient } from '../../../support/http.ts';
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
import {
  ADMIN,
  startServer,
  type TestServer,
} from '../../../support/start-server.ts';

let server: TestServer;
let admin: HttpClient;
let adminId: string;
beforeAll(async () => {
  server = await startServer();
  admin = adminHttp(server.url);
  adminId = (await admin.get('/api/users/me')).body.id;
});
afterAll(async () => server.close());

interface AuditEvent {
  id: string;
  action: string;
  actorUserId: string | null;
  actorEmail: string | null;
  targetType: string;
  targetId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  dateCreated: string;
}

/** The newest audit events (as the bootstrap admin, who holds ROLE_AUDIT_LIST). */
async function events(query = ''): Promise<AuditEvent[]> {
  const answer = await admin.get(`/api/admin/audit?count=300&${query}`);
  expect(answer.status).toBe(200);
  return answer.body.events;
}

async function auditTotal(): Promise<number> {
  return (await admin.get('/api/admin/audit?count=1')).body.total;
}

/** The single newest event, after checking the call added exactly one. */
async function onlyNewEvent(
  call: () => Promise<{ status: number }>,
  status: number,
): Promise<AuditEvent> {
  const before = await auditTotal();
  expect((await call()).status).toBe(status);
  expect(await auditTotal()).toBe(before + 1);
  return (await events())[0]!;
}

const asAdmin = {
  actorUserId: expect.any(String),
  actorEmail: ADMIN.email,
  ip: '127.0.0.1',
  dateCreated: expect.any(String),
  id: expect.stringMatching(/^\d+$/),
};

describe('each privileged action is recorded with actor, address, target and the change', () => {
  it('credit.granted and balance.threshold_changed, on the client', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const balancePath = defaultBalancePath(client.id);
    const credit = await onlyNewEvent(
      () =>
        admin.post(`${balancePath}/freecredit`, {
          amount: '2.5',
          reason: 'Goodwill',
        }),
      200,
    );
    expect(credit).toEqual({
      ...asAdmin,
      actorUserId: adminId,
      action: 'credit.granted',
      targetType: 'client',
      targetId: client.id,
      before: { amount: 0 },
      after: { amount: 2.5, credit: 2.5, reason: 'Goodwill' },
    });
    const threshold = await onlyNewEvent(
      () => admin.put(balancePath, { minThreshold: '1.25' }),
      200,
    );
    expect(threshold).toEqual({
      ...asAdmin,
      action: 'balance.threshold_changed',
      targetType: 'client',
      targetId: client.id,
      before: { minThreshold: 0 },
      after: { minThreshold: 1.25 },
    });
  });

  it('role.added and role.removed, with the roles before and after', async () => {
    const { user } = await registerUser(server.url);
    const added = await onlyNewEvent(
      () =>
        admin.post(`/api/admin/users/${user.id}/roles/add`, {
          role: 'ROLE_CLIENT_LIST',
        }),
      200,
    );
    expect(added).toEqual({
      ...asAdmin,
      action: 'role.added',
      targetType: 'user',
      targetId: user.id,
      before: { roles: ['ROLE_SMS_CREATE'] },
      after: { roles: ['ROLE_CLIENT_LIST', 'ROLE_SMS_CREATE'] },
    });
    const removed = await onlyNewEvent(
      () =>
        admin.put(`/api/admin/users/${user.id}/roles/remove`, {
          role: 'ROLE_SMS_CREATE',
        }),
      200,
    );
    expect(removed).toMatchObject({
      action: 'role.removed',
      targetId: user.id,
      before: { roles: ['ROLE_CLIENT_LIST', 'ROLE_SMS_CREATE'] },
      after: { roles: ['ROLE_CLIENT_LIST'] },
    });
    // Granting a role held already changes nothing, so records nothing.
    const total = await auditTotal();
    await admin.post(`/api/admin/users/${user.id}/roles/add`, {
      role: 'ROLE_CLIENT_LIST',
    });
    expect(await auditTotal()).toBe(total);
  });

  it('user.updated with only the fields that changed, by staff or by the user', async () => {
    const { user, email, http } = await registerUser(server.url);
    const profile = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      organization: 'Analytical Engines',
      email,
    };
    const byStaff = await onlyNewEvent(
      () =>
        admin.put(`/api/admin/users/${user.id}`, {
          ...profile,
          organization: 'Difference Engines',
        }),
      200,
    );
    expect(byStaff).toEqual({
      ...asAdmin,
      action: 'user.updated',
      targetType: 'user',
      targetId: user.id,
      before: { organization: 'Analytical Engines' },
      after: { organization: 'Difference Engines' },
    });
    const newEmail = uniqueEmail('renamed');
    const bySelf = await onlyNewEvent(
      () =>
        http.put('/api/users/me', {
          ...profile,
          organization: 'Difference Engines',
          email: newEmail,
        }),
      200,
    );
    expect(bySelf).toMatchObject({
      action: 'user.updated',
      actorUserId: user.id,
      actorEmail: email,
      targetId: user.id,
      before: { email },
      after: { email: newEmail },
    });
  });

  it('user.password_changed, without any password', async () => {
    const { user, email, password, http } = await registerUser(server.url);
    const changed = await onlyNewEvent(
      () =>
        http.put('/api/users/me/password', {
          currentPassword: password,
          newPassword: 'new-password-456',
        }),
      204,
    );
    expect(changed).toEqual({
      ...asAdmin,
      actorUserId: user.id,
      actorEmail: email,
      action: 'user.password_changed',
      targetType: 'user',
      targetId: user.id,
      before: null,
      after: null,
    });
  });

  it('client.created, client.renamed, client.secret_reset and client.deleted', async () => {
    const { user, email, http } = await registerUser(server.url);
    const created = await onlyNewEvent(
      () => http.post('/api/clients', { name: 'Shop' }),
      201,
    );
    const clientId = created.targetId!;
    expect(created).toEqual({
      ...asAdmin,
      actorUserId: user.id,
      actorEmail: email,
      action: 'client.created',
      targetType: 'client',
      targetId: expect.any(String),
      before: null,
      after: { name: 'Shop', userId: user.id },
    });
    const byStaff = await onlyNewEvent(
      () => admin.post('/api/admin/clients', { userId: user.id, name: 'Ops' }),
      201,
    );
    expect(byStaff).toMatchObject({
      action: 'client.created',
      actorEmail: ADMIN.email,
      after: { name: 'Ops', userId: user.id },
    });
    expect(
      await onlyNewEvent(
        () => http.put(`/api/clients/${clientId}`, { name: 'Shop 2' }),
        200,
      ),
    ).toMatchObject({
      action: 'client.renamed',
      targetId: clientId,
      before: { name: 'Shop' },
      after: { name: 'Shop 2' },
    });
    expect(
      await onlyNewEvent(
        () => admin.put(`/api/admin/clients/${clientId}`, { name: 'Shop 3' }),
        200,
      ),
    ).toMatchObject({
      action: 'client.renamed',
      actorEmail: ADMIN.email,
      before: { name: 'Shop 2' },
      after: { name: 'Shop 3' },
    });
    expect(
      await onlyNewEvent(
        () => http.post(`/api/clients/${clientId}/resetSecret`),
        200,
      ),
    ).toMatchObject({
      action: 'client.secret_reset',
      targetType: 'client',
      targetId: clientId,
      before: null,
      after: { graceSeconds: 0 },
    });
    expect(
      await onlyNewEvent(
        () =>
          http.post(`/api/clients/${clientId}/resetSecret`, {
            graceSeconds: 3600,
          }),
        200,
      ),
    ).toMatchObject({
      action: 'client.secret_reset',
      before: null,
      after: { graceSeconds: 3600 },
    });
    expect(
      await onlyNewEvent(() => http.delete(`/api/clients/${clientId}`), 204),
    ).toMatchObject({
      action: 'client.deleted',
      targetId: clientId,
      before: { name: 'Shop 3', userId: user.id },
      after: null,
    });
  });

  it('route_split.created, route_split.updated and route_split.deleted, on the client', async () => {
    const { client } = await freshUserAndClient();
    const created = await onlyNewEvent(
      () =>
        admin.post('/api/admin/routes/split', {
          userId: client.userId,
          clientId: client.id,
          deliveryMethod: 'MELROSE_SMPP',
          weight: 70,
        }),
      201,
    );
    const splitId = created.after!.routeSplitId as string;
    expect(created).toEqual({
      ...asAdmin,
      action: 'route_split.created',
      targetType: 'client',
      targetId: client.id,
      before: null,
      after: {
        routeSplitId: splitId,
        deliveryMethod: 'MELROSE_SMPP',
        weight: 70,
      },
    });
    expect(
      await onlyNewEvent(
        () =>
          admin.put(`/api/admin/routes/split/${splitId}`, {
            deliveryMethod: 'MELROSE_SMPP',
            weight: 30,
          }),
        200,
      ),
    ).toMatchObject({
      action: 'route_split.updated',
      targetId: client.id,
      before: { weight: 70 },
      after: { weight: 30 },
    });
    expect(
      await onlyNewEvent(
        () => admin.delete(`/api/admin/routes/split/${splitId}`),
        204,
      ),
    ).toMatchObject({
      action: 'route_split.deleted',
      targetId: client.id,
      before: {
        routeSplitId: splitId,
        deliveryMethod: 'MELROSE_SMPP',
        weight: 30,
      },
      after: null,
    });
    // Unknown split: 404 and nothing recorded.
    const total = await auditTotal();
    expect(
      (await admin.delete(`/api/admin/routes/split/${splitId}`)).status,
    ).toBe(404);
    expect(await auditTotal()).toBe(total);
  });

  it('auth.throttled once when an account is locked, for the account tried, from its address, with the refused tries', async () => {
    const { user, email } = await registerUser(server.url);
    const wrong = httpClient(server.url, { username: email, password: 'x' });
    const before = await auditTotal();
    for (let i = 0; i < 12; i += 1) await wrong.get('/api/users/me');
    expect((await wrong.get('/api/users/me')).status).toBe(429);
    // Recorded beside the answer, not before it, and its count a moment later: wait for both.
    const throttled = await eventually(
      () => events(`action=auth.throttled&targetId=${user.id}`),
      (found) => found[0]?.after?.refused === 3,
      { what: 'auth.throttled with its count' },
    );
    expect(throttled).toEqual([
      {
        id: expect.any(String),
        action: 'auth.throttled',
        actorUserId: null,
        actorEmail: null,
        targetType: 'user',
        targetId: user.id,
        before: null,
        after: {
          email: email.toLowerCase(),
          retryAfterSeconds: expect.any(Number),
          // The 11th, 12th and 13th tries.
          refused: 3,
          refusedForOthers: 0,
        },
        ip: '127.0.0.1',
        dateCreated: expect.any(String),
      },
    ]);
    expect(await auditTotal()).toBe(before + 1);
  });

  it('never holds a password, secret or hash', async () => {
    const all = JSON.stringify(await events());
    expect(all.length).toBeGreaterThan(100);
    expect(all).not.toMatch(/password-|\$scrypt|secret"|hash/i);
  });
});

describe('a change and its record commit together', () => {
  it('records nothing when the change is refused or fails', async () => {
    const { user, http } = await registerUser(server.url);
    const client = await createClient(http);
    const total = await auditTotal();
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (await http.put(`/api/clients/${unknown}`, { name: 'X' })).status,
    ).toBe(404);
    expect(
      (
        await admin.post(`${defaultBalancePath(client.id)}/freecredit`, {
          amount: 'lots',
        })
      ).status,
    ).toBe(400);
    // Near numeric(15,4)'s limit the credit fails in the database: no balance change, no record.
    const path = `${defaultBalancePath(client.id)}/freecredit`;
    await server.app.db.query(
      'UPDATE balances SET amount = 99999999999 WHERE id = $1',
      [client.id],
    );
    try {
      expect((await admin.post(path, { amount: 1000 })).status).toBe(422);
    } finally {
      await server.app.db.query(
        'UPDATE balances SET amount = 0 WHERE id = $1',
        [client.id],
      );
    }
    expect(
      (
        await http.put('/api/users/me/password', {
          currentPassword: 'wrong-password',
          newPassword: 'new-password-456',
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await admin.put(`/api/admin/users/${user.id}`, {
          firstName: 'A',
          lastName: 'B',
          email: ADMIN.email,
        })
      ).status,
    ).toBe(409);
    expect(await auditTotal()).toBe(total);
  });
});

/**
 * Every route that changes data as a signed-in user or as staff, with a valid call. A route
 * added later fails the test until it is listed here: in AUDITED if it records (and then its
 * call must add an event), in NOT_AUDITED with the reason it need not.
 */
type Call = () => Promise<{ status: number }>;

async function freshUserAndClient() {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  return { ...owner, client };
}

async function newSplit(): Promise<{ id: string; clientId: string }> {
  const { client } = await freshUserAndClient();
  const created = await admin.post('/api/admin/routes/split', {
    userId: client.userId,
    clientId: client.id,
    deliveryMethod: 'MELROSE_SMPP',
    weight: 10,
  });
  expect(created.status).toBe(201);
  return created.body;
}

const AUDITED: Record<string, () => Promise<Call>> = {
  'POST /api/admin/clients': async () => {
    const { user } = await registerUser(server.url);
    return () =>
      admin.post('/api/admin/clients', { userId: user.id, name: 'A' });
  },
  'PUT /api/admin/clients/:clientId': async () => {
    const { client } = await freshUserAndClient();
    return () => admin.put(`/api/admin/clients/${client.id}`, { name: 'B' });
  },
  'POST /api/admin/clients/:clientId/balances/:balanceId/freecredit':
    async () => {
      const { client } = await freshUserAndClient();
      return () =>
        admin.post(`${defaultBalancePath(client.id)}/freecredit`, {
          amount: 1,
        });
    },
  'POST /api/admin/clients/:clientId/messages/cancel': async () => {
    const { client } = await freshUserAndClient();
    return () =>
      admin.post(`/api/admin/clients/${client.id}/messages/cancel`, {});
  },
  'PUT /api/admin/clients/:clientId/limits': async () => {
    const { client } = await freshUserAndClient();
    return () =>
      admin.put(`/api/admin/clients/${client.id}/limits`, {
        maxMessagesPerSecond: 5,
      });
  },
  'PUT /api/admin/clients/:clientId/balances/:balanceId': async () => {
    const { client } = await freshUserAndClient();
    return () =>
      admin.put(defaultBalancePath(client.id), {
        minThreshold: 3,
      });
  },
  'PUT /api/admin/users/:id': async () => {
    const { user, email } = await registerUser(server.url);
    return () =>
      admin.put(`/api/admin/users/${user.id}`, {
        firstName: 'Changed',
        lastName: 'Name',
        email,
      });
  },
  'POST /api/admin/users/:id/roles/add': async () => {
    const { user } = await registerUser(server.url);
    return () =>
      admin.post(`/api/admin/users/${user.id}/roles/add`, {
        role: 'ROLE_ROUTE_LIST',
      });
  },
  'PUT /api/admin/users/:id/roles/remove': async () => {
    const { user } = await registerUser(server.url);
    return () =>
      admin.put(`/api/admin/users/${user.id}/roles/remove`, {
        role: 'ROLE_SMS_CREATE',
      });
  },
  'POST /api/clients': async () => {
    const { http } = await registerUser(server.url);
    return () => http.post('/api/clients', { name: 'C' });
  },
  'PUT /api/clients/:clientId': async () => {
    const { http, client } = await freshUserAndClient();
    return () => http.put(`/api/clients/${client.id}`, { name: 'D' });
  },
  'DELETE /api/clients/:clientId': async () => {
    const { http, client } = await freshUserAndClient();
    return () => http.delete(`/api/clients/${client.id}`);
  },
  'POST /api/clients/:clientId/resetSecret': async () => {
    const { http, client } = await freshUserAndClient();
    return () => http.post(`/api/clients/${client.id}/resetSecret`);
  },
  'POST /api/admin/routes/split': async () => {
    const { client } = await freshUserAndClient();
    return () =>
      admin.post('/api/admin/routes/split', {
        userId: client.userId,
        clientId: client.id,
        deliveryMethod: 'VONAGE_SMS',
        weight: 10,
      });
  },
  'PUT /api/admin/routes/split/:id': async () => {
    const split = await newSplit();
    return () =>
      admin.put(`/api/admin/routes/split/${split.id}`, {
        deliveryMethod: 'VONAGE_SMS',
        weight: 20,
      });
  },
  'DELETE /api/admin/routes/split/:id': async () => {
    const split = await newSplit();
    return () => admin.delete(`/api/admin/routes/split/${split.id}`);
  },
  'PUT /api/admin/prices/:prefix': async () => () =>
    admin.put(`/api/admin/prices/${uniquePrefix()}`, {
      name: 'Audited',
      pricePerSegment: 0.05,
    }),
  'DELETE /api/admin/prices/:prefix': async () => {
    const prefix = uniquePrefix();
    await setPrice(server.url, prefix, { name: 'Gone', pricePerSegment: 1 });
    return () => admin.delete(`/api/admin/prices/${prefix}`);
  },
  'PUT /api/admin/prices.csv': async () => () =>
    admin.put(
      '/api/admin/prices.csv',
      `prefix,name,pricePerSegment,blocked\n${uniquePrefix()},Imported,0.05,false\n`,
      { 'content-type': 'text/csv' },
    ),
  'POST /api/clients/:clientId/statusCallback/rotateKey': async () => {
    const { http, client } = await freshUserAndClient();
    await http.put(`/api/clients/${client.id}`, {
      statusCallbackUrl: 'https://93.184.216.34/hooks',
    });
    return () =>
      http.post(`/api/clients/${client.id}/statusCallback/rotateKey`);
  },
  'PUT /api/users/me': async () => {
    const { http, email } = await registerUser(server.url);
    return () =>
      http.put('/api/users/me', { firstName: 'New', lastName: 'Me', email });
  },
  'PUT /api/users/me/password': async () => {
    const { http, password } = await registerUser(server.url);
    return () =>
      http.put('/api/users/me/password', {
        currentPassword: password,
        newPassword: 'another-password-1',
      });
  },
  'PUT /api/admin/numbers/:number': async () => {
    const { client } = await freshUserAndClient();
    return () =>
      admin.put(`/api/admin/numbers/${uniquePrefix()}`, {
        clientId: client.id,
      });
  },
  'DELETE /api/admin/numbers/:number': async () => {
    const { client } = await freshUserAndClient();
    const number = uniquePrefix();
    await admin.put(`/api/admin/numbers/${number}`, { clientId: client.id });
    return () => admin.delete(`/api/admin/numbers/${number}`);
  },
};

/** Writes the contract's list of audited actions leaves out, and why. */
const NOT_AUDITED: Record<string, string> = {
  'POST /api/clients/:clientId/statusCallback/test':
    'sends one test event to the URL the owner set (an audited change); changes nothing',
};

describe('no admin or account write goes unaudited', () => {
  const writes = () =>
    server.app.routeTable
      .filter((r) => r.config?.scope === 'admin' || r.config?.scope === 'user')
      .flatMap((r) => [r.method].flat().map((m) => `${m} ${r.url}`))
      .filter((call) => !/^(GET|HEAD|OPTIONS) /.test(call))
      .sort();

  it('lists every write of the user and admin scopes as audited or exempt, with a reason', () => {
    expect(writes()).toEqual(
      [...Object.keys(AUDITED), ...Object.keys(NOT_AUDITED)].sort(),
    );
  });

  it.each(Object.keys(AUDITED))('%s adds an audit event', async (call) => {
    const act = await AUDITED[call]!();
    const before = await auditTotal();
    const answer = await act();
    expect(answer.status).toBeLessThan(300);
    expect(await auditTotal()).toBe(before + 1);
  });
});

describe('GET /api/admin/audit', () => {
  it('lists newest first, pages, and filters by action, actor, target and period', async () => {
    const { user, http } = await registerUser(server.url);
    const client = await createClient(http, 'Filtered');
    await http.put(`/api/clients/${client.id}`, { name: 'Filtered 2' });
    await admin.put(`/api/admin/clients/${client.id}`, { name: 'Filtered 3' });

    const all = await admin.get('/api/admin/audit');
    expect(all.body).toMatchObject({ count: 30, offset: 0 });
    const ids = (all.body.events as AuditEvent[]).map((e) => BigInt(e.id));
    expect(ids.every((id, i) => i === 0 || id < ids[i - 1]!)).toBe(true);
    const second = await admin.get('/api/admin/audit?count=2&offset=1');
    expect(second.body.events.map((e: AuditEvent) => e.id)).toEqual(
      all.body.events.slice(1, 3).map((e: AuditEvent) => e.id),
    );
    expect(second.body.total).toBe(all.body.total);

    const onClient = await events(`targetId=${client.id}`);
    expect(onClient.map((e) => [e.action, e.actorEmail])).toEqual([
      ['client.renamed', ADMIN.email],
      ['client.renamed', user.email],
      ['client.created', user.email],
    ]);
    const byUser = await events(`actorUserId=${user.id}`);
    expect(byUser.map((e) => e.action)).toEqual([
      'client.renamed',
      'client.created',
    ]);
    const renamedByUser = await events(
      `actorUserId=${user.id}&action=client.renamed`,
    );
    expect(renamedByUser).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(await events(`targetId=${client.id}&since=${today}`)).toHaveLength(
      3,
    );
    expect(await events(`targetId=${client.id}&until=2020-01-01`)).toEqual([]);
    const newest = onClient[0]!.dateCreated;
    expect(
      await events(
        `targetId=${client.id}&since=${encodeURIComponent(newest)}&until=${encodeURIComponent(newest)}`,
      ),
    ).toHaveLength(1);
  });

  it.each([
    ['action=client.exploded', /Unknown action/],
    ['actorUserId=42', /^Actor user ID must be a UUID such as [0-9a-f-]{36}$/],
    [
      'targetId=x',
      /^Target ID must be a UUID such as [0-9a-f-]{36}, or the digits of a price prefix or number$/,
    ],
    ['targetId=4479x', /^Target ID must be a UUID/],
    ['since=today', /date \(YYYY-MM-DD\) or an ISO 8601 time/],
    ['since=2026-02-01&until=2026-01-01', /since must be before until/],
    ['offset=-1', /offset must not be negative/],
  ])('refuses %s with 400', async (query, message) => {
    const answer = await admin.get(`/api/admin/audit?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(message);
  });

  it('needs ROLE_AUDIT_LIST: other admin roles and API clients get 403', async () => {
    const { user, http } = await registerUser(server.url);
    expect((await http.get('/api/admin/audit')).status).toBe(403);
    await setRoles(server.url, user.id, [
      'ROLE_USER_ADMIN',
      'ROLE_CLIENT_ADMIN',
      'ROLE_USERROLE_ADMIN',
    ]);
    expect((await http.get('/api/admin/audit')).status).toBe(403);
    await setRoles(server.url, user.id, ['ROLE_AUDIT_LIST']);
    const allowed = await http.get('/api/admin/audit?count=1');
    expect(allowed.status).toBe(200);
    expect(allowed.body.events).toHaveLength(1);
    const client = await createClient(admin, 'Audit reader');
    expect(
      (await clientHttp(server.url, client).get('/api/admin/audit')).status,
    ).toBe(403);
  });

  it('the bootstrap admin holds ROLE_AUDIT_LIST', async () => {
    const me = await admin.get('/api/users/me');
    expect(me.body.roles).toContain('ROLE_AUDIT_LIST');
  });
});

describe('refused sign-ins cannot flood the audit log (issue 15)', () => {
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startServer({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => proxied.close());

  it('500 refused tries with new long user names from a locked address add one event, with their count', async () => {
    const staff = adminHttp(proxied.url);
    const total = async (): Promise<number> =>
      (await staff.get('/api/admin/audit?count=1')).body.total;
    const before = await total();
    const from = '203.0.113.9';
    const longName = (i: number) =>
      `${String(i).padStart(4, '0')}-${'x'.repeat(8 * 1024)}@example.test`;
    const tryName = (i: number) =>
      httpClient(proxied.url).get('/api/users/me', {
        authorization: `Basic ${Buffer.from(`${longName(i)}:wrong`).toString('base64')}`,
        'x-forwarded-for': from,
      });
    const statuses: number[] = [];
    for (let i = 0; i < 600; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, j) => tryName(i + j)),
      );
      statuses.push(...batch.map((a) => a.status));
    }
    // 100 failures lock the address; the 500 tries after them are refused.
    expect(statuses.filter((s) => s === 401).length).toBe(100);
    expect(statuses.filter((s) => s === 429).length).toBe(500);
    // The count is brought up to date shortly after the tries, not on each one.
    const throttled: AuditEvent[] = await eventually(
      async () =>
        (await staff.get('/api/admin/audit?action=auth.throttled')).body.events,
      (found: AuditEvent[]) => found[0]?.after?.refused === 500,
      { what: 'auth.throttled with its count', interval: 100 },
    );
    expect(throttled).toHaveLength(1);
    const [event] = throttled;
    expect(event).toMatchObject({
      action: 'auth.throttled',
      actorUserId: null,
      targetType: 'user',
      targetId: null,
      ip: from,
      after: { refused: 500, retryAfterSeconds: expect.any(Number) },
    });
    expect(String(event!.after!.email)).toHaveLength(100);
    expect(await total()).toBe(before + 1);
    // 100 wrong passwords each run the slow KDF: on 2 busy cores that alone can take 30 s.
  }, 90_000);
});
