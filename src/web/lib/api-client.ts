import { ApiError } from './api-error';
import {
  ACCESS_REFUSED,
  CREDENTIALS_REFUSED,
  setAuthNotice,
} from './auth-notice';
import { clearCredentials, getCredentials } from './credentials';

/** The API is served by the same process, on the same origin (CONTRACT.md). */
const API_BASE = '/api';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiResponse<T = unknown> {
  ok: boolean;
  status: number;
  /** Parsed JSON when the answer has a body, else undefined. */
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Every call except registration and the public config carries authorization (spec §6). */
  auth?: boolean;
  /** `text` asks for and returns the body as text (a CSV download); JSON otherwise. */
  responseType?: 'json' | 'text';
  /** Sends `body` (a string) as is with this type (a CSV upload) instead of as JSON. */
  contentType?: string;
  /** Sent as `Idempotency-Key`: a repeat of the request with it is answered, not done again. */
  idempotencyKey?: string;
  /**
   * For a call whose 403 can refuse what was asked rather than who asks (a send to a recipient
   * who opted out, or to a blocked destination): a 403 whose `code` names such a refusal is
   * answered like any 4xx, for the screen to show its reason. A 403 coded `forbidden` (a role
   * missing, spec §8), or with no code, still signs the user out.
   */
  refusalIsAnswer?: boolean;
}

/** A 403 refusing the request itself: coded, and not the `forbidden` of a missing role. */
function refusesRequest(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || !('code' in body)) {
    return false;
  }
  const code = (body as { code: unknown }).code;
  return typeof code === 'string' && code !== '' && code !== 'forbidden';
}

function basicAuth(email: string, password: string): string {
  // btoa only takes Latin-1: encode the UTF-8 bytes so any password works.
  const bytes = new TextEncoder().encode(`${email}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

async function parseBody(
  response: Response,
  responseType: RequestOptions['responseType'],
): Promise<unknown> {
  const text = await response.text();
  if (response.ok && responseType === 'text') return text;
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Logs the user out and shows the Login screen with the reason (spec §4, §8). */
function sendToLogin(status: number) {
  clearCredentials();
  setAuthNotice({
    tone: 'error',
    text: status === 401 ? CREDENTIALS_REFUSED : ACCESS_REFUSED,
  });
  window.location.hash = '#/login';
}

/**
 * The one HTTP helper (spec §7): JSON in and out, Basic authorization from the stored
 * credentials, `{ok, status, body}` back. A 401 or 403 logs the user out and goes to /login.
 */
export async function apiRequest<T = unknown>(
  method: HttpMethod,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const url = buildUrl(path, options.query);
  const headers: Record<string, string> = {
    Accept:
      options.responseType === 'text'
        ? 'text/*, application/json'
        : 'application/json',
  };
  if (options.auth !== false) {
    const credentials = getCredentials();
    if (!credentials) throw new Error('Not logged in');
    headers.Authorization = basicAuth(credentials.email, credentials.password);
  }
  if (options.idempotencyKey !== undefined) {
    headers['Idempotency-Key'] = options.idempotencyKey;
  }
  const init: RequestInit = { method, headers };
  if (options.body !== undefined) {
    const raw = options.contentType !== undefined;
    headers['Content-Type'] = options.contentType ?? 'application/json';
    init.body = raw ? String(options.body) : JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(new URL(url, window.location.href), init);
  } catch (error) {
    console.warn(`Network error for ${url}`, error);
    throw error;
  }
  const body = (await parseBody(response, options.responseType)) as T;
  if (!response.ok) {
    console.warn(`Received ${response.status} for ${url}`);
    const refusal =
      response.status === 403 &&
      options.refusalIsAnswer === true &&
      refusesRequest(body);
    if ((response.status === 401 || response.status === 403) && !refusal) {
      sendToLogin(response.status);
    }
  }
  return { ok: response.ok, status: response.status, body };
}

/** The body of an ok answer, or an ApiError carrying the status and body. */
export function unwrap<T>(response: ApiResponse<T>): T {
  if (!response.ok) throw new ApiError(response.status, response.body);
  return response.body;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) =>
    apiRequest<T>('GET', path, options),
  post: <T>(path: string, options?: RequestOptions) =>
    apiRequest<T>('POST', path, options),
  put: <T>(path: string, options?: RequestOptions) =>
    apiRequest<T>('PUT', path, options),
  delete: <T>(path: string, options?: RequestOptions) =>
    apiRequest<T>('DELETE', path, options),
};
