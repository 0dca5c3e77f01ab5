import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from '../../../support/http.ts';
import {
  adminHttp,
  createClient,
  registerUser,
  setRoles,
} from '../../../support/seed.ts';
import { expectLedgerBalanced } from '../../../support/ledger.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const creditPath = (clientId: string, balanceId = clientId) =>
  `/api/admin/clients/${clientId}/balances/${balanceId}/freecredit`;

describe('GET /api/clients/{clientId}/balances/default', () => {
  it('answers the balance of my client with the shape of spec section 3', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const balance = await http.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.status).toBe(200);
    expect(balance.body).toEqual({
      id: client.id,
      currency: 'EUR',
      amount: 0,
      minThreshold: 0,
      dateCreated: expect.any(String),
      dateUpdated: expect.any(String),
    });
  });

  it("answers 404 for another user's client, an unknown id, 400 for a bad id", async () => {
    const owner = await registerUser(server.url);
    const other = await registerUser(server.url);
    const client = await createClient(owner.http);
    expect(
      (await other.http.get(`/api/clients/${client.id}/balances/default`))
        .status,
    ).toBe(404);
    expect(
      (await other.http.get(`/api/clients/${UNKNOWN}/balances/default`)).status,
    ).toBe(404);
    expect(
      (await other.http.get('/api/clients/xyz/balances/default')).status,
    ).toBe(400);
  });
});

describe('GET /api/admin/clients/{clientId}/balances/default', () => {
  it("answers any client's balance to an admin, 404 for an unknown client", async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const admin = adminHttp(server.url);
    const balance = await admin.get(
      `/api/admin/clients/${client.id}/balances/default`,
    );
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({
      id: client.id,
      currency: 'EUR',
      amount: 0,
    });
    expect(
      (await admin.get(`/api/admin/clients/${UNKNOWN}/balances/default`))
        .status,
    ).toBe(404);
    expect(
      (await admin.get('/api/admin/clients/nope/balances/default')).status,
    ).toBe(400);
  });
});

describe('POST /api/admin/clients/{clientId}/balances/{balanceId}/freecredit', () => {
  it('adds 0.1 then 0.2 to exactly 0.3, in the JSON text too', async () => {
    const { http, email, password } = await registerUser(server.url);
    const client = await createClient(http);
    const admin = adminHttp(server.url);
    const first = await admin.post(creditPath(client.id), { amount: 0.1 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: client.id, amount: 0.1 });
    const second = await admin.post(creditPath(client.id), { amount: 0.2 });
    expect(second.body.amount).toBe(0.3);
    const raw = await fetch(
      `${server.url}/api/clients/${client.id}/balances/default`,
      { headers: { authorization: basic(email, password) } },
    );
    const text = await raw.text();
    expect(text).toContain('"amount":0.3,');
    expect(text).not.toContain('0.30000000000000004');
  });

  it('accepts the amount as a string and keeps 4 decimal places exactly', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const admin = adminHttp(server.url);
    await admin.post(creditPath(client.id), { amount: '12345.6789' });
    const after = await admin.post(creditPath(client.id), { amount: '0.0001' });
    expect(after.body.amount).toBe(12345.679);
    const many = await Promise.all(
      Array.from({ length: 10 }, () =>
        admin.post(creditPath(client.id), { amount: 0.1 }),
      ),
    );
    expect(many.every((a) => a.status === 200)).toBe(true);
    const balance = await http.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.body.amount).toBe(12346.679);
    await expectLedgerBalanced(server);
  });

  it.each([
    [0],
    [-1],
    ['-0.5'],
    ['0'],
    ['abc'],
    [''],
    ['0.00001'],
    [0.00001],
    ['1e3'],
    [1e-7],
    [1_000_001],
    [null],
    [true],
    [[1]],
  ])('refuses the amount %j with 400 and changes nothing', async (amount) => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const answer = await adminHttp(server.url).post(creditPath(client.id), {
      amount,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
    });
    const balance = await http.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.body.amount).toBe(0);
  });

  it('refuses a missing amount with 400', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const answer = await adminHttp(server.url).post(creditPath(client.id), {});
    expect(answer.status).toBe(400);
  });

  it("answers 404 for another client's balance id, or an unknown client", async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http, 'A');
    const other = await createClient(http, 'B');
    const admin = adminHttp(server.url);
    expect(
      (await admin.post(creditPath(client.id, other.id), { amount: 5 })).status,
    ).toBe(404);
    expect(
      (await admin.post(creditPath(UNKNOWN, UNKNOWN), { amount: 5 })).status,
    ).toBe(404);
    expect(
      (await admin.post(creditPath(client.id, 'bad'), { amount: 5 })).status,
    ).toBe(400);
    for (const id of [client.id, other.id]) {
      const balance = await http.get(`/api/clients/${id}/balances/default`);
      expect(balance.body.amount).toBe(0);
    }
  });

  it('needs ROLE_CLIENT_UPDATE; ROLE_CLIENT_VIEW only reads the balance', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const viewer = await registerUser(server.url);
    await setRoles(server.url, viewer.user.id, ['ROLE_CLIENT_VIEW']);
    expect(
      (
        await viewer.http.get(
          `/api/admin/clients/${client.id}/balances/default`,
        )
      ).status,
    ).toBe(200);
    expect(
      (await viewer.http.post(creditPath(client.id), { amount: 5 })).status,
    ).toBe(403);
    const updater = await registerUser(server.url);
    await setRoles(server.url, updater.user.id, ['ROLE_CLIENT_UPDATE']);
    expect(
      (await updater.http.post(creditPath(client.id), { amount: 5 })).status,
    ).toBe(200);
    expect(
      (
        await updater.http.get(
          `/api/admin/clients/${client.id}/balances/default`,
        )
      ).status,
    ).toBe(403);
    // A customer cannot credit their own client.
    expect((await http.post(creditPath(client.id), { amount: 5 })).status).toBe(
      403,
    );
    expect(
      (await http.get(`/api/clients/${client.id}/balances/default`)).body
        .amount,
    ).toBe(5);
  });
});

describe('PUT /api/admin/clients/{clientId}/balances/{balanceId}', () => {
  const thresholdPath = (clientId: string, balanceId = clientId) =>
    `/api/admin/clients/${clientId}/balances/${balanceId}`;

  it("sets minThreshold exactly; the customer's balance shows it", async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const admin = adminHttp(server.url);
    const set = await admin.put(thresholdPath(client.id), {
      minThreshold: '12.3456',
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      id: client.id,
      amount: 0,
      minThreshold: 12.3456,
    });
    const seen = await http.get(`/api/clients/${client.id}/balances/default`);
    expect(seen.body.minThreshold).toBe(12.3456);
    const zero = await admin.put(thresholdPath(client.id), { minThreshold: 0 });
    expect(zero.body.minThreshold).toBe(0);
  });

  it.each([[-1], ['-0.01'], ['1.00001'], ['abc'], [null], [{}]])(
    'refuses minThreshold %j with 400 and changes nothing',
    async (minThreshold) => {
      const { http } = await registerUser(server.url);
      const client = await createClient(http);
      const answer = await adminHttp(server.url).put(thresholdPath(client.id), {
        minThreshold,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(
        /Threshold must be a decimal of at least 0 with at most 4 decimal places/,
      );
      const balance = await http.get(
        `/api/clients/${client.id}/balances/default`,
      );
      expect(balance.body.minThreshold).toBe(0);
    },
  );

  it('answers 404 for an unknown client or a balance of another client', async () => {
    const { http } = await registerUser(server.url);
    const a = await createClient(http);
    const b = await createClient(http);
    const admin = adminHttp(server.url);
    const body = { minThreshold: 1 };
    expect((await admin.put(thresholdPath(UNKNOWN), body)).status).toBe(404);
    expect((await admin.put(thresholdPath(a.id, b.id), body)).status).toBe(404);
    expect((await admin.put(thresholdPath('x'), body)).status).toBe(400);
  });

  it('needs ROLE_CLIENT_UPDATE or ROLE_CLIENT_ADMIN (403 with ROLE_CLIENT_VIEW)', async () => {
    const owner = await registerUser(server.url);
    const client = await createClient(owner.http);
    const staff = await registerUser(server.url);
    await setRoles(server.url, staff.user.id, ['ROLE_CLIENT_VIEW']);
    const path = thresholdPath(client.id);
    expect((await staff.http.put(path, { minThreshold: 1 })).status).toBe(403);
    await setRoles(server.url, staff.user.id, ['ROLE_CLIENT_UPDATE']);
    expect((await staff.http.put(path, { minThreshold: 1 })).status).toBe(200);
  });
});
