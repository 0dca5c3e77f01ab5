import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../support/http.ts';
import { adminHttp, clientHttp, createClient } from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * Identity by scope: the scope a route is registered in decides who may call it. This walks
 * every registered /api route, so a route added later is checked without anyone remembering to.
 */

/**
 * The only calls an API client's id and secret may make (CONTRACT: its balance, with its
 * ledger and usage, messages, the quote of a send, its batches, and its numbers, inbound messages and
 * conversations).
 */
const CLIENT_CALLS = [
  'GET /api/clients/:clientId/balances/default',
  'GET /api/clients/:clientId/balances/default/ledger',
  'GET /api/clients/:clientId/balances/default/ledger.csv',
  'GET /api/clients/:clientId/balances/default/usage',
  'POST /api/clients/:clientId/messages/sms',
  'GET /api/clients/:clientId/messages',
  'GET /api/clients/:clientId/messages.csv',
  'GET /api/clients/:clientId/messages/:messageId',
  'POST /api/clients/:clientId/messages/:messageId/cancel',
  'GET /api/clients/:clientId/quote',
  'POST /api/clients/:clientId/batches',
  'GET /api/clients/:clientId/batches',
  'GET /api/clients/:clientId/batches/:batchId',
  'POST /api/clients/:clientId/batches/:batchId/cancel',
  'GET /api/clients/:clientId/optouts',
  'GET /api/clients/:clientId/optouts.csv',
  'PUT /api/clients/:clientId/optouts/:number',
  'DELETE /api/clients/:clientId/optouts/:number',
  'GET /api/clients/:clientId/numbers',
  'GET /api/clients/:clientId/inbound',
  'GET /api/clients/:clientId/inbound/:id',
  'GET /api/clients/:clientId/conversations',
  'GET /api/clients/:clientId/conversations/:number',
];

/** Reads the same for every caller, naming no client (signed-in scope): API clients too. */
const SIGNED_IN_CALLS = ['GET /api/prices'];

let server: TestServer;
let client: { id: string; secret: string };

beforeAll(async () => {
  server = await startServer();
  client = await createClient(adminHttp(server.url), 'Scoped');
});
afterAll(() => server.close());

function apiRoutes() {
  return server.app.routeTable
    .filter((route) => route.url.startsWith('/api/'))
    .flatMap((route) =>
      [route.method].flat().map((method) => ({
        call: `${method} ${route.url}`,
        method,
        url: route.url,
        scope: route.config?.scope,
      })),
    )
    .filter(({ method }) => method !== 'HEAD');
}

/** A concrete path: every parameter becomes the API client's own id. */
function pathOf(url: string): string {
  return url.replace(/:\w+/g, client.id);
}

describe('identity by scope', () => {
  it('puts every /api route in a scope', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((r) => !r.scope).map((r) => r.call)).toEqual([]);
  });

  it('lets API-client credentials reach only the client-or-user routes and the signed-in reads', () => {
    const reachable = apiRoutes()
      .filter((r) => r.scope === 'client-or-user')
      .map((r) => r.call)
      .sort();
    expect(reachable).toEqual([...CLIENT_CALLS].sort());
    const signedIn = apiRoutes()
      .filter((r) => r.scope === 'signed-in')
      .map((r) => r.call)
      .sort();
    expect(signedIn).toEqual([...SIGNED_IN_CALLS].sort());
    expect(signedIn.filter((call) => call.includes(':'))).toEqual([]);
  });

  it('refuses API-client credentials with 403 on every user-only and admin route', async () => {
    const http = clientHttp(server.url, client);
    const guarded = apiRoutes().filter(
      (r) => r.scope === 'user' || r.scope === 'admin',
    );
    expect(guarded.length).toBeGreaterThan(15);
    for (const route of guarded) {
      const answer = await http.request(
        route.method,
        pathOf(route.url),
        route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      );
      expect({ call: route.call, status: answer.status }).toEqual({
        call: route.call,
        status: 403,
      });
      expect(answer.body.message).toMatch(/API client credentials|permission/);
    }
  });

  it('accepts API-client credentials on its own client-or-user routes', async () => {
    const http = clientHttp(server.url, client);
    const balance = await http.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.status).toBe(200);
    const sms = await http.post(`/api/clients/${client.id}/messages/sms`, {});
    expect(sms.status).toBe(400);
    for (const path of ['ledger', 'ledger.csv', 'usage']) {
      const answer = await http.get(
        `/api/clients/${client.id}/balances/default/${path}`,
      );
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
    }
  });

  it("names the client :clientId on every client-or-user route, and answers 404 to an API client for its owner's other clients", async () => {
    const routes = apiRoutes().filter((r) => r.scope === 'client-or-user');
    expect(
      routes.filter((r) => !r.url.includes('/:clientId')).map((r) => r.call),
    ).toEqual([]);
    // A sibling client of the same owner: the credentials of one never reach the other.
    const owner = (
      await adminHttp(server.url).get(`/api/admin/clients/${client.id}`)
    ).body.userId as string;
    const sibling = await adminHttp(server.url).post('/api/admin/clients', {
      userId: owner,
      name: 'Sibling',
    });
    expect(sibling.status).toBe(201);
    const http = clientHttp(server.url, client);
    for (const route of routes) {
      const path = route.url
        .replace(':clientId', sibling.body.id)
        .replace(/:\w+/g, client.id);
      const answer = await http.request(
        route.method,
        path,
        route.method === 'GET' ? undefined : {},
      );
      expect({ call: route.call, status: answer.status }).toEqual({
        call: route.call,
        status: 404,
      });
    }
  });

  it('refuses every authenticated route without credentials (401)', async () => {
    const anonymous = httpClient(server.url);
    for (const route of apiRoutes().filter((r) => r.scope !== 'public')) {
      const answer = await anonymous.request(route.method, pathOf(route.url));
      expect({ call: route.call, status: answer.status }).toEqual({
        call: route.call,
        status: 401,
      });
    }
  });
});
