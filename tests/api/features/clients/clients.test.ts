import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, registerUser } from '../../../support/seed.ts';
import { expectLedgerBalanced } from '../../../support/ledger.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

describe('POST /api/clients', () => {
  it('answers 201 with the client and its secret', async () => {
    const { http, user } = await registerUser(server.url);
    const created = await http.post('/api/clients', { name: 'Web shop' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ userId: user.id, name: 'Web shop' });
    expect(created.body.secret).toEqual(expect.any(String));
    expect(created.body.secret.length).toBeGreaterThanOrEqual(32);
  });

  it('gives the new client a default balance in EUR at 0, with the client id', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const balance = await http.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({
      id: client.id,
      currency: 'EUR',
      amount: 0,
    });
  });

  it('refuses an empty name with 400', async () => {
    const { http } = await registerUser(server.url);
    for (const body of [{ name: '' }, { name: '   ' }, {}, { name: 42 }]) {
      const answer = await http.post('/api/clients', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400 });
    }
  });

  it('stops at exactly 30 clients when 50 creates race', async () => {
    const { http } = await registerUser(server.url);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        http.post('/api/clients', { name: `Client ${i}` }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(created).toHaveLength(30);
    expect(refused).toHaveLength(20);
    // Each created client has a balance at 0 and no ledger row: still accounted for.
    await expectLedgerBalanced(server);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        code: 'client_limit_reached',
        message: 'You have reach the maximum allowed number of clients.',
      });
    }
    const list = await http.get('/api/clients?count=300');
    expect(list.body.total).toBe(30);
    expect(list.body.clients).toHaveLength(30);
  });

  it('lets another user create clients when one user is at the limit', async () => {
    const full = await registerUser(server.url);
    for (let i = 0; i < 30; i += 1) await createClient(full.http);
    expect((await full.http.post('/api/clients', { name: 'x' })).status).toBe(
      409,
    );
    const other = await registerUser(server.url);
    expect((await other.http.post('/api/clients', { name: 'x' })).status).toBe(
      201,
    );
  });
});

describe('the secret', () => {
  it('appears in the create and reset answers only, never in GET or the list', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const one = await http.get(`/api/clients/${client.id}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('secret');
    expect(JSON.stringify(one.body)).not.toContain(client.secret);
    const list = await http.get('/api/clients');
    expect(list.body.clients[0]).not.toHaveProperty('secret');
    const renamed = await http.put(`/api/clients/${client.id}`, {
      name: 'New',
    });
    expect(renamed.body).not.toHaveProperty('secret');
    const reset = await http.post(`/api/clients/${client.id}/resetSecret`);
    expect(reset.status).toBe(200);
    expect(reset.body.secret).toEqual(expect.any(String));
    expect(reset.body.secret).not.toBe(client.secret);
  });
});

describe('GET /api/clients', () => {
  it('lists my clients under `clients` in a stable order, with paging', async () => {
    const { http } = await registerUser(server.url);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await createClient(http)).id);
    const all = await http.get('/api/clients');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 5, count: 30, offset: 0 });
    expect(all.body.clients.map((c: { id: string }) => c.id)).toEqual(ids);
    const first = await http.get('/api/clients?count=2&offset=0');
    const second = await http.get('/api/clients?count=2&offset=2');
    const third = await http.get('/api/clients?count=2&offset=4');
    expect(
      [first, second, third].flatMap((page) =>
        page.body.clients.map((c: { id: string }) => c.id),
      ),
    ).toEqual(ids);
    expect(second.body).toMatchObject({ total: 5, count: 2, offset: 2 });
  });

  it('caps count at 300 and refuses a bad count or offset with 400', async () => {
    const { http } = await registerUser(server.url);
    expect((await http.get('/api/clients?count=5000')).body.count).toBe(300);
    for (const query of ['count=0', 'count=abc', 'offset=-1', 'count=1.5']) {
      const answer = await http.get(`/api/clients?${query}`);
      expect(answer.status, query).toBe(400);
    }
  });

  it('shows only my own clients', async () => {
    const mine = await registerUser(server.url);
    const other = await registerUser(server.url);
    await createClient(other.http);
    const client = await createClient(mine.http);
    const list = await mine.http.get('/api/clients');
    expect(list.body.clients.map((c: { id: string }) => c.id)).toEqual([
      client.id,
    ]);
  });
});

describe('one client', () => {
  it('renames, then deletes: the client and its balance are gone (404)', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const renamed = await http.put(`/api/clients/${client.id}`, {
      name: 'Renamed',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Renamed');
    expect((await http.get(`/api/clients/${client.id}`)).body.name).toBe(
      'Renamed',
    );
    expect((await http.delete(`/api/clients/${client.id}`)).status).toBe(204);
    expect((await http.get(`/api/clients/${client.id}`)).status).toBe(404);
    expect(
      (await http.get(`/api/clients/${client.id}/balances/default`)).status,
    ).toBe(404);
    expect((await http.delete(`/api/clients/${client.id}`)).status).toBe(404);
  });

  it("answers 404 on every customer call for another user's client", async () => {
    const owner = await registerUser(server.url);
    const intruder = await registerUser(server.url);
    const client = await createClient(owner.http);
    const path = `/api/clients/${client.id}`;
    const answers = [
      await intruder.http.get(path),
      await intruder.http.put(path, { name: 'Mine now' }),
      await intruder.http.post(`${path}/resetSecret`),
      await intruder.http.get(`${path}/balances/default`),
      await intruder.http.post(`${path}/messages/sms`, {
        sender: 'Me',
        recipient: '447700900123',
        body: 'hi',
      }),
      await intruder.http.delete(path),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({
        statusCode: 404,
        error: 'Not Found',
        code: 'not_found',
        message: expect.any(String),
      });
    }
    // Nothing happened to the owner's client.
    const still = await owner.http.get(path);
    expect(still.body.name).toBe('Shop');
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const { http } = await registerUser(server.url);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await http.get(`/api/clients/${unknown}`)).status).toBe(404);
    const bad = await http.get('/api/clients/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Invalid id');
  });
});
