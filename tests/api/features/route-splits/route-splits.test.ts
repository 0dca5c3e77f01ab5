import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminHttp,
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
const idsOf = (list: { id: string }[]) => list.map((r) => r.id);

async function customerWithClient() {
  const customer = await registerUser(server.url);
  const client = await createClient(customer.http);
  return { userId: customer.user.id as string, clientId: client.id };
}

describe('POST /api/admin/routes/split', () => {
  it('creates a split with the default weight 10', async () => {
    const { userId, clientId } = await customerWithClient();
    const created = await adminHttp(server.url).post(
      '/api/admin/routes/split',
      {
        userId,
        clientId,
        deliveryMethod: 'VONAGE_SMS',
      },
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      userId,
      clientId,
      deliveryMethod: 'VONAGE_SMS',
      weight: 10,
    });
  });

  it('keeps a given weight, including 0, and takes a numeric string from a form', async () => {
    const { userId, clientId } = await customerWithClient();
    const admin = adminHttp(server.url);
    for (const weight of [0, 25, 1000]) {
      const created = await admin.post('/api/admin/routes/split', {
        userId,
        clientId,
        deliveryMethod: 'MELROSE_SMPP',
        weight,
      });
      expect(created.status).toBe(201);
      expect(created.body.weight).toBe(weight);
    }
    const fromForm = await admin.post('/api/admin/routes/split', {
      userId,
      clientId,
      deliveryMethod: 'MELROSE_SMPP',
      weight: '15',
    });
    expect(fromForm.status).toBe(201);
    expect(fromForm.body.weight).toBe(15);
  });

  it('refuses a bad delivery method or weight with 400', async () => {
    const { userId, clientId } = await customerWithClient();
    const admin = adminHttp(server.url);
    const base = { userId, clientId, deliveryMethod: 'WORLD_SPECIAL' };
    for (const body of [
      { ...base, deliveryMethod: 'CARRIER_PIGEON' },
      { ...base, deliveryMethod: undefined },
      { ...base, weight: -1 },
      { ...base, weight: 1001 },
      { ...base, weight: 2.5 },
      { ...base, weight: 'heavy' },
      { ...base, weight: null },
      { ...base, weight: true },
      { ...base, weight: [5] },
      { ...base, weight: '' },
      { ...base, userId: 'nope' },
      { ...base, clientId: undefined },
    ]) {
      const answer = await admin.post('/api/admin/routes/split', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    const bad = await admin.post('/api/admin/routes/split', {
      ...base,
      deliveryMethod: 'X',
    });
    expect(bad.body.message).toContain(
      'Delivery method must be one of VONAGE_SMS, MELROSE_SMPP, WORLD_SPECIAL',
    );
  });

  it('answers 400 for a client of another user, 404 for an unknown user or client', async () => {
    const a = await customerWithClient();
    const b = await customerWithClient();
    const admin = adminHttp(server.url);
    const mismatch = await admin.post('/api/admin/routes/split', {
      userId: a.userId,
      clientId: b.clientId,
      deliveryMethod: 'VONAGE_SMS',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe(
      'The client does not belong to that user',
    );
    const noClient = await admin.post('/api/admin/routes/split', {
      userId: a.userId,
      clientId: UNKNOWN,
      deliveryMethod: 'VONAGE_SMS',
    });
    expect(noClient.status).toBe(404);
    expect(noClient.body.message).toBe('Client not found');
    const noUser = await admin.post('/api/admin/routes/split', {
      userId: UNKNOWN,
      clientId: a.clientId,
      deliveryMethod: 'VONAGE_SMS',
    });
    expect(noUser.status).toBe(404);
    expect(noUser.body.message).toBe('User not found');
    const list = await admin.get(`/api/admin/routes/split?userId=${a.userId}`);
    expect(list.body.total).toBe(0);
  });
});

describe('one split', () => {
  it('is read, updated and deleted by id; exactly that split goes', async () => {
    const { userId, clientId } = await customerWithClient();
    const admin = adminHttp(server.url);
    const make = async (deliveryMethod: string) =>
      (
        await admin.post('/api/admin/routes/split', {
          userId,
          clientId,
          deliveryMethod,
        })
      ).body as { id: string };
    const keep = await make('VONAGE_SMS');
    const doomed = await make('MELROSE_SMPP');
    const path = `/api/admin/routes/split/${doomed.id}`;

    const read = await admin.get(path);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: doomed.id,
      deliveryMethod: 'MELROSE_SMPP',
      weight: 10,
    });

    const updated = await admin.put(path, {
      deliveryMethod: 'WORLD_SPECIAL',
      weight: 40,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      id: doomed.id,
      userId,
      clientId,
      deliveryMethod: 'WORLD_SPECIAL',
      weight: 40,
    });
    expect((await admin.get(path)).body.weight).toBe(40);

    const deleted = await admin.delete(path);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await admin.get(path)).status).toBe(404);
    expect((await admin.delete(path)).status).toBe(404);
    const left = await admin.get(
      `/api/admin/routes/split?clientId=${clientId}`,
    );
    expect(idsOf(left.body.routes)).toEqual([keep.id]);
  });

  it('refuses the id-less DELETE of the spec (404) and deletes nothing', async () => {
    const { userId, clientId } = await customerWithClient();
    const admin = adminHttp(server.url);
    await admin.post('/api/admin/routes/split', {
      userId,
      clientId,
      deliveryMethod: 'VONAGE_SMS',
    });
    const before = (await admin.get('/api/admin/routes/split?count=300')).body
      .total;
    const answer = await admin.delete('/api/admin/routes/split');
    expect(answer.status).toBe(404);
    expect(
      (await admin.get('/api/admin/routes/split?count=300')).body.total,
    ).toBe(before);
  });

  it('answers 404 for unknown ids, 400 for bad ids and bodies', async () => {
    const admin = adminHttp(server.url);
    const path = `/api/admin/routes/split/${UNKNOWN}`;
    const change = { deliveryMethod: 'VONAGE_SMS', weight: 5 };
    expect((await admin.get(path)).status).toBe(404);
    expect((await admin.put(path, change)).status).toBe(404);
    expect((await admin.delete(path)).status).toBe(404);
    expect((await admin.get('/api/admin/routes/split/1')).status).toBe(400);
    expect((await admin.delete('/api/admin/routes/split/1')).status).toBe(400);
    const { userId, clientId } = await customerWithClient();
    const split = await admin.post('/api/admin/routes/split', {
      userId,
      clientId,
      deliveryMethod: 'VONAGE_SMS',
    });
    for (const body of [
      { deliveryMethod: 'NOPE', weight: 1 },
      { deliveryMethod: 'VONAGE_SMS', weight: -5 },
      { weight: 3 },
    ]) {
      expect(
        (await admin.put(`/api/admin/routes/split/${split.body.id}`, body))
          .status,
      ).toBe(400);
    }
  });
});

describe('GET /api/admin/routes/split', () => {
  it('lists under `routes`, filtered by userId or clientId, in a stable order with paging', async () => {
    const admin = adminHttp(server.url);
    const customer = await registerUser(server.url);
    const c1 = await createClient(customer.http, 'one');
    const c2 = await createClient(customer.http, 'two');
    const other = await customerWithClient();
    const ids: string[] = [];
    for (const clientId of [c1.id, c2.id, c1.id]) {
      const created = await admin.post('/api/admin/routes/split', {
        userId: customer.user.id,
        clientId,
        deliveryMethod: 'VONAGE_SMS',
      });
      ids.push(created.body.id);
    }
    await admin.post('/api/admin/routes/split', {
      ...other,
      deliveryMethod: 'VONAGE_SMS',
    });

    const byUser = await admin.get(
      `/api/admin/routes/split?userId=${customer.user.id}`,
    );
    expect(byUser.status).toBe(200);
    expect(byUser.body).toMatchObject({ total: 3, count: 30, offset: 0 });
    expect(idsOf(byUser.body.routes)).toEqual(ids);

    const byClient = await admin.get(
      `/api/admin/routes/split?clientId=${c1.id}`,
    );
    expect(idsOf(byClient.body.routes)).toEqual([ids[0], ids[2]]);

    const page = await admin.get(
      `/api/admin/routes/split?userId=${customer.user.id}&count=1&offset=1`,
    );
    expect(page.body).toMatchObject({ total: 3, count: 1, offset: 1 });
    expect(idsOf(page.body.routes)).toEqual([ids[1]]);

    const all = await admin.get('/api/admin/routes/split?count=1000');
    expect(all.body.count).toBe(300);
    expect(all.body.total).toBeGreaterThanOrEqual(4);
    expect((await admin.get('/api/admin/routes/split?clientId=x')).status).toBe(
      400,
    );
  });

  it('goes away with its client', async () => {
    const admin = adminHttp(server.url);
    const customer = await registerUser(server.url);
    const client = await createClient(customer.http);
    const split = await admin.post('/api/admin/routes/split', {
      userId: customer.user.id,
      clientId: client.id,
      deliveryMethod: 'VONAGE_SMS',
    });
    await customer.http.delete(`/api/clients/${client.id}`);
    expect(
      (await admin.get(`/api/admin/routes/split/${split.body.id}`)).status,
    ).toBe(404);
  });
});
