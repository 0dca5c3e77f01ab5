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
