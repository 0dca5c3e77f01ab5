import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_METHODS } from '../../../src/shared/limits.ts';
import { waitForMessage } from '../../support/delivery.ts';
import { smscBind } from '../../support/fleet.ts';
import { startSmsc, type TestSmsc } from '../../support/smsc.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';
import {
  adminHttp,
  createClient,
  giveCredit,
  registerUser,
  setRoles,
} from '../../support/seed.ts';

/**
 * GET /api/admin/operations (issue 18 part 6): per delivery method the last hour's messages by
 * state, the latency from acceptance to a provider taking them, the bind state, the queue depth;
 * for holders of ROLE_OPERATIONS_VIEW.
 */
let smsc: TestSmsc;
let server: TestServer;

beforeAll(async () => {
  smsc = await startSmsc({ receipt: { stat: 'DELIVRD' } });
  server = await startServer(smscBind(smsc));
});
afterAll(async () => {
  await server?.close();
  await smsc?.close();
});

describe('GET /api/admin/operations', () => {
  it("shows the hour's messages of each method by state, their latency, the bind and the queue", async () => {
    const admin = adminHttp(server.url);
    const empty = await admin.get('/api/admin/operations');
    expect(empty.status).toBe(200);
    const smpp = (body: any) =>
      body.methods.find((m: any) => m.method === 'MELROSE_SMPP');
    expect(smpp(empty.body)).toMatchObject({
      states: {},
      latency: { p50: null, p95: null },
      simulated: false,
      bound: true,
    });
    expect(empty.body.methods.map((m: { method: string }) => m.method)).toEqual(
      [...DELIVERY_METHODS],
    );
    // Methods with no connection of their own on this node (simulated here): no bind state.
    expect(
      empty.body.methods.find((m: any) => m.method === 'VONAGE_SMS'),
    ).toMatchObject({ bound: null, simulated: true });

    const owner = await registerUser(server.url);
    const client = await createClient(owner.http);
    await giveCredit(server.url, client.id, 10);
    for (let i = 0; i < 3; i++) {
      const sent = await owner.http.post(
        `/api/clients/${client.id}/messages/sms`,
        { sender: 'Shop', recipient: '+44 7700 900123', body: `Ops ${i}` },
      );
      expect(sent.status).toBe(201);
      await waitForMessage(owner.http, client.id, sent.body.id);
    }
    const after = await admin.get('/api/admin/operations');
    expect(after.status).toBe(200);
    const method = smpp(after.body);
    expect(method.states).toEqual({ DELIVERED: 3 });
    expect(method.latency.p50).toBeGreaterThan(0);
    expect(method.latency.p95).toBeGreaterThanOrEqual(method.latency.p50);
    expect(method.perMinute).toHaveLength(60);
    expect(
      method.perMinute.reduce((sum: number, n: number) => sum + n, 0),
    ).toBe(3);
    // The current minute is the last one.
    expect(method.perMinute.at(-1) + method.perMinute.at(-2)).toBe(3);
    expect(after.body.queueDepth).toBe(0);
    expect(after.body.unrouted).toEqual({});
    const since = Date.parse(after.body.since);
    expect(Date.now() - since).toBeGreaterThanOrEqual(59 * 60_000);
    expect(Date.now() - since).toBeLessThan(61 * 60_000);
  }, 60_000);

  it('needs ROLE_OPERATIONS_VIEW, which the bootstrap admin holds', async () => {
    const admin = adminHttp(server.url);
    expect((await admin.get('/api/users/me')).body.roles).toContain(
      'ROLE_OPERATIONS_VIEW',
    );
    const { user, http } = await registerUser(server.url);
    expect((await http.get('/api/admin/operations')).status).toBe(403);
    await setRoles(server.url, user.id, [
      'ROLE_CLIENT_ADMIN',
      'ROLE_AUDIT_LIST',
    ]);
    expect((await http.get('/api/admin/operations')).status).toBe(403);
    await setRoles(server.url, user.id, ['ROLE_OPERATIONS_VIEW']);
    expect((await http.get('/api/admin/operations')).status).toBe(200);
  }, 60_000);
});
