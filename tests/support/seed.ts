import { randomBytes, randomInt } from 'node:crypto';
import { ADMIN } from './admin.ts';
import { httpClient, type HttpClient } from './http.ts';

/**
 * The one way tests seed data: through the public API of a running server, named by its base
 * URL. API tests pass their test server's URL; the e2e fixtures (tests/e2e/fixtures.ts) pass the
 * e2e server's. Each helper throws on an unexpected answer, so a broken seed fails loudly.
 */

export interface TestUser {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  organization: string;
}

export interface TestClient {
  id: string;
  userId: string;
  name: string;
  secret: string;
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.test`;
}

function expectStatus(
  what: string,
  answer: { status: number; body: unknown },
  status: number,
) {
  if (answer.status !== status) {
    throw new Error(
      `${what} failed: ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  }
}

/** Signed in as the bootstrap admin, who holds every role. */
export function adminHttp(baseUrl: string): HttpClient {
  return httpClient(baseUrl, {
    username: ADMIN.email,
    password: ADMIN.password,
  });
}

/** Signed in as a user, by email and password. */
export function userHttp(
  baseUrl: string,
  user: { email: string; password: string },
): HttpClient {
  return httpClient(baseUrl, { username: user.email, password: user.password });
}

/** Signed in with an API client's id and secret. */
export function clientHttp(
  baseUrl: string,
  client: { id: string; secret: string },
): HttpClient {
  return httpClient(baseUrl, { username: client.id, password: client.secret });
}

/** Registers a new customer; returns them, the answer's body (`user`) and a client signed in as them. */
export async function registerUser(
  baseUrl: string,
  overrides: Partial<Omit<TestUser, 'id'>> = {},
): Promise<TestUser & { user: any; http: HttpClient }> {
  const fields = {
    email: overrides.email ?? uniqueEmail(),
    password: overrides.password ?? 'password-123',
    firstName: overrides.firstName ?? 'Ada',
    lastName: overrides.lastName ?? 'Lovelace',
    organization: overrides.organization ?? 'Analytical Engines',
  };
  const answer = await httpClient(baseUrl).post('/api/register', fields);
  expectStatus('register', answer, 201);
  return {
    ...fields,
    id: answer.body.id,
    user: answer.body,
    http: userHttp(baseUrl, fields),
  };
}

/** Creates a client as `http`'s user and returns it with its secret. */
export async function createClient(
  http: HttpClient,
  name = 'Shop',
): Promise<TestClient> {
  const answer = await http.post('/api/clients', { name });
  expectStatus('create client', answer, 201);
  return answer.body as TestClient;
}

/**
 * The admin API's path of a client's default balance. It relies on the rule "a client's default
 * balance has the client's id" (README), here and nowhere else in the tests; the balances API
 * test proves the rule itself.
 */
export function defaultBalancePath(clientId: string): string {
  return `/api/admin/clients/${clientId}/balances/${clientId}`;
}

/** Grants free credit to a client's default balance as the admin. */
export async function giveCredit(
  baseUrl: string,
  clientId: string,
  amount: number | string,
): Promise<{ amount: number }> {
  const answer = await adminHttp(baseUrl).post(
    `${defaultBalancePath(clientId)}/freecredit`,
    { amount },
  );
  expectStatus('free credit', answer, 200);
  return answer.body as { amount: number };
}

/** Sets a user's roles to exactly `roles` through the admin API. */
export async function setRoles(
  baseUrl: string,
  userId: string,
  roles: string[],
): Promise<void> {
  const admin = adminHttp(baseUrl);
  const held = await admin.get(`/api/admin/users/${userId}/roles`);
  expectStatus('read roles', held, 200);
  for (const { role } of held.body.roles as { role: string }[]) {
    if (!roles.includes(role)) {
      const removed = await admin.put(
        `/api/admin/users/${userId}/roles/remove`,
        {
          role,
        },
      );
      expectStatus(`remove role ${role}`, removed, 200);
    }
  }
  for (const role of roles) {
    const added = await admin.post(`/api/admin/users/${userId}/roles/add`, {
      role,
    });
    expectStatus(`add role ${role}`, added, 200);
  }
}

/** A price-list prefix no other test uses: 12 digits starting with 99. */
export function uniquePrefix(): string {
  return `99${String(randomInt(10 ** 9)).padStart(10, '0')}`;
}

/** Creates or replaces a price-list entry as the admin; returns the Price. */
export async function setPrice(
  baseUrl: string,
  prefix: string,
  price: { name: string; pricePerSegment: number | string; blocked?: boolean },
): Promise<{
  prefix: string;
  name: string;
  pricePerSegment: number;
  blocked: boolean;
}> {
  const answer = await adminHttp(baseUrl).put(
    `/api/admin/prices/${prefix}`,
    price,
  );
  expectStatus(`set price ${prefix}`, answer, 200);
  return answer.body;
}
