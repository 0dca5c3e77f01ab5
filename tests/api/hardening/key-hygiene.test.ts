import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  registerUser,
} from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/* Issue 12 item 7: when a secret was last used, and rotating it with a grace period. */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

const balancePath = (id: string) => `/api/clients/${id}/balances/default`;
/** Waits for time to pass: only where a test proves that nothing happens meanwhile. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every view of a client its owner and staff have: list, detail, admin list, admin detail. */
async function views(http: ReturnType<typeof clientHttp>, id: string) {
  const admin = adminHttp(server.url);
  const mine = await http.get('/api/clients');
  const theirs = await admin.get(
    `/api/admin/clients?userId=${(await http.get(`/api/clients/${id}`)).body.userId}`,
  );
  return [
    mine.body.clients.find((c: { id: string }) => c.id === id),
    (await http.get(`/api/clients/${id}`)).body,
    theirs.body.clients.find((c: { id: string }) => c.id === id),
    (await admin.get(`/api/admin/clients/${id}`)).body,
  ];
}

describe('secretLastUsedAt', () => {
  it('is null until the secret is used, then shows when, in every view and never with the secret', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    expect(client).toMatchObject({ secretLastUsedAt: null });
    expect(client.secret).toEqual(expect.any(String));
    for (const view of await views(http, client.id)) {
      expect(view).toMatchObject({ id: client.id, secretLastUsedAt: null });
      expect(view).not.toHaveProperty('secret');
    }

    const before = Date.now();
    const api = clientHttp(server.url, client);
    expect((await api.get(balancePath(client.id))).status).toBe(200);
    // Recorded off the request's path: it appears a moment later.
    const seen: string = await eventually(
      async () =>
        (await http.get(`/api/clients/${client.id}`)).body.secretLastUsedAt,
      (at) => at !== null,
      { what: 'secretLastUsedAt' },
    );
    expect(Date.parse(seen!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(seen!)).toBeLessThanOrEqual(Date.now() + 1000);
    for (const view of await views(http, client.id)) {
      expect(view.secretLastUsedAt).toBe(seen);
      expect(view).not.toHaveProperty('secret');
    }

    // Used again within the minute: not written again.
    for (let i = 0; i < 5; i++) await api.get(balancePath(client.id));
    await sleep(100);
    expect(
      (await http.get(`/api/clients/${client.id}`)).body.secretLastUsedAt,
    ).toBe(seen);
  });

  it('is not set by the owner signing in, only by the client secret', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    await http.get(balancePath(client.id));
    await sleep(100);
    expect(
      (await http.get(`/api/clients/${client.id}`)).body.secretLastUsedAt,
    ).toBeNull();
  });
});

describe('resetSecret with a grace period', () => {
  it('keeps the old secret working for graceSeconds, both secrets at once, then only the new one', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const old = clientHttp(server.url, client);
    expect((await old.get(balancePath(client.id))).status).toBe(200); // cached
    const resetAt = Date.now();
    const reset = await http.post(`/api/clients/${client.id}/resetSecret`, {
      graceSeconds: 2,
    });
    expect(reset.status).toBe(200);
    expect(reset.body.secret).not.toBe(client.secret);
    const fresh = clientHttp(server.url, {
      id: client.id,
      secret: reset.body.secret,
    });
    expect((await old.get(balancePath(client.id))).status).toBe(200);
    expect((await fresh.get(balancePath(client.id))).status).toBe(200);
    // Then the grace ends (two seconds after the reset), and with it the old secret.
    await expect
      .poll(async () => (await old.get(balancePath(client.id))).status, {
        timeout: 5_000,
        interval: 100,
      })
      .toBe(401);
    expect(Date.now() - resetAt).toBeGreaterThanOrEqual(2_000);
    expect((await fresh.get(balancePath(client.id))).status).toBe(200);
  });

  it('has no grace by default: the old secret stops at once', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const old = clientHttp(server.url, client);
    expect((await old.get(balancePath(client.id))).status).toBe(200);
    const reset = await http.post(`/api/clients/${client.id}/resetSecret`, {});
    expect(reset.status).toBe(200);
    expect((await old.get(balancePath(client.id))).status).toBe(401);
  });

  it('a second reset ends the first one’s grace at once; the secret it replaced gets the grace', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const first = clientHttp(server.url, client);
    const one = await http.post(`/api/clients/${client.id}/resetSecret`, {
      graceSeconds: 600,
    });
    expect((await first.get(balancePath(client.id))).status).toBe(200);
    const second = clientHttp(server.url, {
      id: client.id,
      secret: one.body.secret,
    });
    expect((await second.get(balancePath(client.id))).status).toBe(200);
    const two = await http.post(`/api/clients/${client.id}/resetSecret`, {
      graceSeconds: 600,
    });
    expect(two.status).toBe(200);
    const third = clientHttp(server.url, {
      id: client.id,
      secret: two.body.secret,
    });
    expect((await first.get(balancePath(client.id))).status).toBe(401);
    expect((await second.get(balancePath(client.id))).status).toBe(200);
    expect((await third.get(balancePath(client.id))).status).toBe(200);
    // A reset without grace ends every earlier secret.
    const three = await http.post(`/api/clients/${client.id}/resetSecret`);
    expect(three.status, JSON.stringify(three.body)).toBe(200);
    expect((await second.get(balancePath(client.id))).status).toBe(401);
    expect((await third.get(balancePath(client.id))).status).toBe(401);
    expect(
      (
        await clientHttp(server.url, {
          id: client.id,
          secret: three.body.secret,
        }).get(balancePath(client.id))
      ).status,
    ).toBe(200);
  });

  it('refuses a grace that is not a whole number of seconds from 0 to 604800 (400)', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const path = `/api/clients/${client.id}/resetSecret`;
    for (const graceSeconds of [-1, 604_801, 1.5, '10', null]) {
      const answer = await http.post(path, { graceSeconds });
      expect(answer.status, JSON.stringify(graceSeconds)).toBe(400);
      expect(answer.body).toMatchObject({
        statusCode: 400,
        error: 'Bad Request',
      });
      expect(answer.body.message).toMatch(/grace period/i);
    }
    expect((await http.post(path, { graceSeconds: 604_800 })).status).toBe(200);
    // The client still works with its last secret: the refused calls changed nothing.
    expect((await http.post(path, { graceSeconds: 0 })).status).toBe(200);
  });
});
