import { randomBytes } from 'node:crypto';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** A small HTTP client for API tests: JSON in, parsed JSON (or text) out. */
export function httpClient(
  baseUrl: string,
  auth?: { username: string; password: string },
) {
  async function request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const init: RequestInit = {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(auth ? { authorization: basic(auth.username, auth.password) } : {}),
        ...headers,
      },
      ...(body !== undefined
        ? { body: typeof body === 'string' ? body : JSON.stringify(body) }
        : {}),
    };
    const response = await fetch(`${baseUrl}${path}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return {
      status: response.status,
      headers: response.headers,
      body: parsed as T,
    };
  }
  return {
    request,
    get: <T = any>(path: string, headers?: Record<string, string>) =>
      request<T>('GET', path, undefined, headers),
    post: <T = any>(
      path: string,
      body?: unknown,
      headers?: Record<string, string>,
    ) => request<T>('POST', path, body, headers),
    put: <T = any>(
      path: string,
      body?: unknown,
      headers?: Record<string, string>,
    ) => request<T>('PUT', path, body, headers),
    delete: <T = any>(path: string, headers?: Record<string, string>) =>
      request<T>('DELETE', path, undefined, headers),
  };
}

export type HttpClient = ReturnType<typeof httpClient>;

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.test`;
}

/** Registers a new customer and returns a client signed in as them. */
export async function registerUser(
  baseUrl: string,
  overrides: Partial<{
    email: string;
    password: string;
    firstName: string;
  }> = {},
) {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'password-123';
  const answer = await httpClient(baseUrl).post('/api/register', {
    email,
    password,
    firstName: overrides.firstName ?? 'Ada',
    lastName: 'Lovelace',
    organization: 'Analytical Engines',
  });
  if (answer.status !== 201)
    throw new Error(`register failed: ${answer.status}`);
  return {
    email,
    password,
    user: answer.body,
    http: httpClient(baseUrl, { username: email, password }),
  };
}
