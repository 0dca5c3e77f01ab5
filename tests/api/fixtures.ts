import { ADMIN } from '../support/start-server.ts';
import { httpClient, type HttpClient } from '../support/http.ts';

/** Signed in as the bootstrap admin, who holds every role. */
export function adminHttp(baseUrl: string): HttpClient {
  return httpClient(baseUrl, {
    username: ADMIN.email,
    password: ADMIN.password,
  });
}

/** Creates a client as `http`'s user and returns it with its secret. */
export async function createClient(http: HttpClient, name = 'Shop') {
  const answer = await http.post('/api/clients', { name });
  if (answer.status !== 201) {
    throw new Error(`create client failed: ${answer.status}`);
  }
  return answer.body as {
    id: string;
    userId: string;
    name: string;
    secret: string;
  };
}

/** Signed in with an API client's id and secret. */
export function clientHttp(
  baseUrl: string,
  client: { id: string; secret: string },
): HttpClient {
  return httpClient(baseUrl, { username: client.id, password: client.secret });
}

/** Grants free credit to a client's default balance (its id is the client's id) as the admin. */
export async function giveCredit(
  baseUrl: string,
  clientId: string,
  amount: number | string,
) {
  const answer = await adminHttp(baseUrl).post(
    `/api/admin/clients/${clientId}/balances/${clientId}/freecredit`,
    { amount },
  );
  if (answer.status !== 200) {
    throw new Error(`free credit failed: ${answer.status}`);
  }
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
  for (const { role } of held.body.roles as { role: string }[]) {
    if (!roles.includes(role)) {
      await admin.put(`/api/admin/users/${userId}/roles/remove`, { role });
    }
  }
  for (const role of roles) {
    await admin.post(`/api/admin/users/${userId}/roles/add`, { role });
  }
}
