import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../support/http.ts';
import {
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

const sms = { sender: 'Shop', recipient: '447700900123', body: 'Hello' };

describe('login throttling', () => {
  it('answers 429 with Retry-After after 10 failures, even for the right password; other accounts still pass', async () => {
    const victim = await registerUser(server.url);
    const bystander = await registerUser(server.url);
    const wrong = httpClient(server.url, {
      username: victim.email,
      password: 'wrong-password',
    });
    for (let i = 0; i < 10; i += 1) {
      expect((await wrong.get('/api/users/me')).status).toBe(401);
    }
    const locked = await wrong.get('/api/users/me');
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(locked.body).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
    });
    // The right password is refused too while the account is locked (it was never cached).
    expect((await victim.http.get('/api/users/me')).status).toBe(429);
    // The same address may still sign in to another account.
    expect((await bystander.http.get('/api/users/me')).status).toBe(200);
  });

  it('does not lock an account after fewer than 10 failures', async () => {
    const user = await registerUser(server.url);
    const wrong = httpClient(server.url, {
      username: user.email,
      password: 'wrong-password',
    });
    for (let i = 0; i < 9; i += 1) await wrong.get('/api/users/me');
    expect((await user.http.get('/api/users/me')).status).toBe(200);
  });
});

describe('API client credentials (client id + secret)', () => {
  it("read that client's balance and send its SMS", async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    await giveCredit(server.url, client.id, 1);
    const api = clientHttp(server.url, client);
    const balance = await api.get(`/api/clients/${client.id}/balances/default`);
    expect(balance.status).toBe(200);
    expect(balance.body.amount).toBe(1);
    const sent = await api.post(`/api/clients/${client.id}/messages/sms`, sms);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ clientId: client.id, state: 'ACCEPTED' });
    expect(
      (await api.get(`/api/clients/${client.id}/balances/default`)).body.amount,
    ).toBe(0.95);
  });

  it("reach no other client, not even one of the same user's (404)", async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http, 'A');
    const sibling = await createClient(http, 'B');
    await giveCredit(server.url, sibling.id, 1);
    const api = clientHttp(server.url, client);
    expect(
      (await api.get(`/api/clients/${sibling.id}/balances/default`)).status,
    ).toBe(404);
    expect(
      (await api.post(`/api/clients/${sibling.id}/messages/sms`, sms)).status,
    ).toBe(404);
    expect(
      (await http.get(`/api/clients/${sibling.id}/balances/default`)).body
        .amount,
    ).toBe(1);
  });

  it('are refused (403) for every call that is not the client’s balance or SMS', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const api = clientHttp(server.url, client);
    const answers = [
      await api.get('/api/users/me'),
      await api.get('/api/clients'),
      await api.get(`/api/clients/${client.id}`),
      await api.post(`/api/clients/${client.id}/resetSecret`),
      await api.delete(`/api/clients/${client.id}`),
      await api.get('/api/admin/clients'),
    ];
    for (const answer of answers) expect(answer.status).toBe(403);
    expect((await http.get(`/api/clients/${client.id}`)).status).toBe(200);
  });

  it('stop working at once after a reset; the new secret works', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const path = `/api/clients/${client.id}/balances/default`;
    const old = clientHttp(server.url, client);
    expect((await old.get(path)).status).toBe(200); // now cached
    const reset = await http.post(`/api/clients/${client.id}/resetSecret`);
    expect((await old.get(path)).status).toBe(401);
    const fresh = clientHttp(server.url, {
      id: client.id,
      secret: reset.body.secret,
    });
    expect((await fresh.get(path)).status).toBe(200);
  });

  it('stop working at once when the client is deleted', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const api = clientHttp(server.url, client);
    const path = `/api/clients/${client.id}/balances/default`;
    expect((await api.get(path)).status).toBe(200);
    expect((await http.delete(`/api/clients/${client.id}`)).status).toBe(204);
    expect((await api.get(path)).status).toBe(401);
  });

  it('are refused with a wrong secret (401)', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const api = clientHttp(server.url, { id: client.id, secret: 'nope' });
    expect(
      (await api.get(`/api/clients/${client.id}/balances/default`)).status,
    ).toBe(401);
  });
});
