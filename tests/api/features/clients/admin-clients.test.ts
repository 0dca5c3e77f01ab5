import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminHttp,
  clientHttp,
  createClient,
  registerUser,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const idsOf = (list: { id: string }[]) => list.map((c) => c.id);

describe('POST /api/admin/clients', () => {
  it('creates a client for a user, with its secret and a default balance', async () => {
    const customer = await registerUser(server.url);
    const admin = adminHttp(server.url);
    const created = await admin.post('/api/admin/clients', {
      userId: customer.user.id,
      name: 'Made by admin',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      userId: customer.user.id,
      name: 'Made by admin',
      secret: expect.any(String),
    });
    // The customer owns it: it is in their list and its balance is theirs.
    const list = await customer.http.get('/api/clients');
    expect(idsOf(list.body.clients)).toEqual([created.body.id]);
    const balance = await customer.http.get(
      `/api/clients/${created.body.id}/balances/default`,
    );
    expect(balance.body).toMatchObject({ currency: 'EUR', amount: 0 });
    // And the secret works for that client.
    const api = clientHttp(server.url, created.body);
    expect(
      (await api.get(`/api/clients/${created.body.id}/balances/default`))
        .status,
    ).toBe(200);
  });

  it('answers 404 for an unknown user and 400 for a bad body', async () => {
    const admin = adminHttp(server.url);
    const unknown = await admin.post('/api/admin/clients', {
      userId: UNKNOWN,
      name: 'x',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('User not found');
    for (const body of [
      { name: 'x' },
      { userId: 'nope', name: 'x' },
      { userId: UNKNOWN, name: '' },
    ]) {
      expect((await admin.post('/api/admin/clients', body)).status).toBe(400);
    }
  });

  it('keeps the limit of 30 clients per user, even when 50 creates race', async () => {
    const customer = await registerUser(server.url);
    const admin = adminHttp(server.url);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        admin.post('/api/admin/clients', {
          userId: customer.user.id,
          name: `Client ${i}`,
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(30);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(20);
    for (const answer of refused) {
      expect(answer.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        code: 'client_limit_reached',
        message: 'You have reach the maximum allowed number of clients.',
      });
    }
    expect(
      (await customer.http.post('/api/clients', { name: 'x' })).status,
    ).toBe(409);
  });
});

describe('PUT /api/admin/clients/{id}', () => {
  it("renames any user's client, without showing the secret", async () => {
    const customer = await registerUser(server.url);
    const client = await createClient(customer.http);
    const renamed = await adminHttp(server.url).put(
      `/api/admin/clients/${client.id}`,
      { name: 'Renamed by admin' },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      id: client.id,
      name: 'Renamed by admin',
    });
    expect(renamed.body).not.toHaveProperty('secret');
    expect(
      (await customer.http.get(`/api/clients/${client.id}`)).body.name,
    ).toBe('Renamed by admin');
  });

  it('answers 404 for an unknown client, 400 for a bad id or name', async () => {
    const admin = adminHttp(server.url);
    expect(
      (await admin.put(`/api/admin/clients/${UNKNOWN}`, { name: 'x' })).status,
    ).toBe(404);
    expect(
      (await admin.put('/api/admin/clients/123', { name: 'x' })).status,
    ).toBe(400);
    const customer = await registerUser(server.url);
    const client = await createClient(customer.http);
    expect(
      (await admin.put(`/api/admin/clients/${client.id}`, { name: '' })).status,
    ).toBe(400);
  });
});

describe('GET /api/admin/clients', () => {
  it("lists every client, or one user's with userId, under `clients` and without secrets", async () => {
    const a = await registerUser(server.url);
    const b = await registerUser(server.url);
    const a1 = await createClient(a.http, 'a1');
    const b1 = await createClient(b.http, 'b1');
    const a2 = await createClient(a.http, 'a2');
    const admin = adminHttp(server.url);
    const ofA = await admin.get(`/api/admin/clients?userId=${a.user.id}`);
    expect(ofA.status).toBe(200);
    expect(ofA.body).toMatchObject({ total: 2, count: 30, offset: 0 });
    expect(idsOf(ofA.body.clients)).toEqual([a2.id, a1.id]); // newest first
    const all = await admin.get('/api/admin/clients?count=300');
    expect(idsOf(all.body.clients)).toEqual(
      expect.arrayContaining([a1.id, a2.id, b1.id]),
    );
    // secretLastUsedAt is shown; the secret (or its hash) never is.
    expect(JSON.stringify(all.body)).not.toMatch(/"secret"|secret_?hash/i);
    const none = await admin.get(`/api/admin/clients?userId=${UNKNOWN}`);
    expect(none.body).toMatchObject({ total: 0, clients: [] });
  });

  it('pages in a stable order and caps count at 300', async () => {
    const admin = adminHttp(server.url);
    const all = await admin.get('/api/admin/clients?count=300');
    const ids = idsOf(all.body.clients);
    expect(ids.length).toBeGreaterThan(3);
    const pages: string[] = [];
    for (let offset = 0; offset < ids.length; offset += 3) {
      const page = await admin.get(
        `/api/admin/clients?count=3&offset=${offset}`,
      );
      expect(page.body).toMatchObject({ count: 3, offset });
      pages.push(...idsOf(page.body.clients));
    }
    expect(pages).toEqual(ids);
    expect(all.body.total).toBe(ids.length);
    expect((await admin.get('/api/admin/clients?count=999')).body.count).toBe(
      300,
    );
    expect((await admin.get('/api/admin/clients?userId=1')).status).toBe(400);
    expect((await admin.get('/api/admin/clients?offset=-3')).status).toBe(400);
  });
});

describe('GET /api/admin/clients/{id}', () => {
  it("answers any user's client without its secret; 404 unknown; 400 bad id", async () => {
    const customer = await registerUser(server.url);
    const client = await createClient(customer.http);
    const admin = adminHttp(server.url);
    const one = await admin.get(`/api/admin/clients/${client.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id: client.id,
      userId: customer.user.id,
      name: 'Shop',
      dateCreated: expect.any(String),
      dateUpdated: expect.any(String),
      secretLastUsedAt: null,
      allowedPrefixes: null,
      maxMessagesPerSecond: null,
    });
    expect((await admin.get(`/api/admin/clients/${UNKNOWN}`)).status).toBe(404);
    expect((await admin.get('/api/admin/clients/zzz')).status).toBe(400);
  });
});
