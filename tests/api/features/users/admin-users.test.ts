import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../../support/http.ts';
import { adminHttp, registerUser, uniqueEmail } from '../../../support/seed.ts';
import {
  ADMIN,
  startServer,
  type TestServer,
} from '../../../support/start-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('GET /api/admin/users', () => {
  it('lists users under `users` newest first, with paging', async () => {
    for (let i = 0; i < 4; i += 1) await registerUser(server.url);
    const admin = adminHttp(server.url);
    const all = await admin.get('/api/admin/users?count=300');
    expect(all.status).toBe(200);
    const ids = all.body.users.map((u: { id: string }) => u.id);
    expect(all.body).toMatchObject({
      total: ids.length,
      count: 300,
      offset: 0,
    });
    expect(ids.length).toBeGreaterThanOrEqual(5);
    // Newest first: the bootstrap admin, created first, comes last.
    expect(all.body.users.at(-1).email).toBe(ADMIN.email);
    expect(JSON.stringify(all.body)).not.toMatch(/password|hash/i);
    const first = await admin.get('/api/admin/users?count=2');
    const rest = await admin.get('/api/admin/users?count=300&offset=2');
    expect(
      [...first.body.users, ...rest.body.users].map(
        (u: { id: string }) => u.id,
      ),
    ).toEqual(ids);
    expect(first.body).toMatchObject({ count: 2, offset: 0 });
    expect((await admin.get('/api/admin/users?count=301')).body.count).toBe(
      300,
    );
    expect((await admin.get('/api/admin/users')).body.count).toBe(30);
    expect((await admin.get('/api/admin/users?count=-1')).status).toBe(400);
  });
});

describe('GET /api/admin/users/{id}', () => {
  it('answers the user; 404 unknown; 400 bad id', async () => {
    const { user, email } = await registerUser(server.url, {
      firstName: 'Grace',
    });
    const admin = adminHttp(server.url);
    const one = await admin.get(`/api/admin/users/${user.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id: user.id,
      email,
      firstName: 'Grace',
      lastName: 'Lovelace',
      organization: 'Analytical Engines',
      dateCreated: expect.any(String),
      dateUpdated: expect.any(String),
    });
    expect((await admin.get(`/api/admin/users/${UNKNOWN}`)).status).toBe(404);
    expect((await admin.get('/api/admin/users/me')).status).toBe(400);
  });
});

describe('PUT /api/admin/users/{id}', () => {
  it("updates a user's profile; the user signs in with the new e-mail at once", async () => {
    const customer = await registerUser(server.url);
    expect((await customer.http.get('/api/users/me')).status).toBe(200); // cached
    const email = uniqueEmail('renamed');
    const updated = await adminHttp(server.url).put(
      `/api/admin/users/${customer.user.id}`,
      {
        firstName: 'Ada',
        lastName: 'King',
        organization: 'Lovelace Ltd',
        email,
      },
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: customer.user.id,
      firstName: 'Ada',
      lastName: 'King',
      organization: 'Lovelace Ltd',
      email,
    });
    // The old e-mail's cached credentials were dropped.
    expect((await customer.http.get('/api/users/me')).status).toBe(401);
    const renamed = httpClient(server.url, {
      username: email,
      password: customer.password,
    });
    const me = await renamed.get('/api/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ lastName: 'King', email });
  });

  it('answers 409 when the e-mail belongs to another user, whatever its case', async () => {
    const a = await registerUser(server.url);
    const b = await registerUser(server.url);
    const answer = await adminHttp(server.url).put(
      `/api/admin/users/${a.user.id}`,
      {
        firstName: 'A',
        lastName: 'B',
        organization: '',
        email: b.email.toUpperCase(),
      },
    );
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect((await a.http.get('/api/users/me')).body.email).toBe(a.email);
  });

  it('answers 404 for an unknown user and 400 for a bad body', async () => {
    const admin = adminHttp(server.url);
    const profile = {
      firstName: 'A',
      lastName: 'B',
      organization: '',
      email: uniqueEmail(),
    };
    expect(
      (await admin.put(`/api/admin/users/${UNKNOWN}`, profile)).status,
    ).toBe(404);
    const { user } = await registerUser(server.url);
    for (const body of [
      { ...profile, email: 'not-an-email' },
      { ...profile, firstName: 7 },
      { firstName: 'A' },
    ]) {
      expect(
        (await admin.put(`/api/admin/users/${user.id}`, body)).status,
      ).toBe(400);
    }
  });
});
