import {
  IncomingMessage,
  ServerResponse,
  validateHeaderName,
  validateHeaderValue,
} from 'node:http';
import { Socket } from 'node:net';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER } from './request-id.ts';

const REQUEST_ID_KEY = REQUEST_ID_HEADER.toLowerCase();

/**
 * Strict headers for the console: scripts only from our origin (no inline script), no framing
 * (frame-ancestors 'none', and X-Frame-Options DENY for browsers without CSP), nosniff, no
 * referrer leaks. HSTS and upgrade-insecure-requests are off because the server speaks plain
 * http; a TLS proxy in front adds HSTS.
 */
export const HELMET_OPTIONS: FastifyHelmetOptions = {
  global: true,
  hsts: false,
  frameguard: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'no-referrer' },
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'"],
      'connect-src': ["'self'"],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
  },
};

/**
 * The headers @fastify/helmet sets with `options`, as [name, value] pairs in its own order and
 * spelling. The plugin rebuilds its middleware (and re-parses the CSP directives) on every
 * request; the answer never depends on the request, so it is asked once, on a private
 * instance, and replayed.
 */
export async function helmetHeaders(
  options: FastifyHelmetOptions = HELMET_OPTIONS,
): Promise<[string, string][]> {
  const probe = Fastify();
  const headers: [string, string][] = [];
  let recording = true;
  // Runs before helmet's hooks: records what they set on the raw response, up to the handler.
  probe.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    const setHeader = raw.setHeader.bind(raw);
    raw.setHeader = (name, value) => {
      if (recording) headers.push([name, String(value)]);
      return setHeader(name, value);
    };
    done();
  });
  await probe.register(helmet, options);
  probe.get('/', async () => {
    recording = false;
    return '';
  });
  try {
    await probe.inject('/');
  } finally {
    await probe.close();
  }
  if (headers.length === 0) throw new Error('helmet set no header');
  return headers;
}

/** How Node keeps a response's headers: `{ [lowercase name]: [name, value] }`. */
type HeaderRecord = Record<string, [string, string]>;

/**
 * A record for Node's headers: an object whose prototype has no keys at all (not even
 * Object.prototype's), so every lookup and for…in Node makes sees only the headers, as in the
 * null-prototype object Node makes itself, while the object keeps a fixed shape.
 */
const EMPTY = Object.create(null) as object;
const newRecord = () => Object.create(EMPTY) as HeaderRecord;

/**
 * The symbol under which Node's OutgoingMessage keeps the headers given to `setHeader`, when a
 * record written under it gives the same header block as `setHeader` calls (checked here on
 * two probe responses). Undefined otherwise (another Node): headers are then set one by one.
 */
export function outHeadersSymbol(): symbol | undefined {
  const probe = () => new ServerResponse(new IncomingMessage(new Socket()));
  const set = probe();
  const symbol = Object.getOwnPropertySymbols(set).find(
    (s) => s.description === 'kOutHeaders',
  );
  if (!symbol || (set as unknown as Record<symbol, unknown>)[symbol] !== null)
    return undefined;
  const headers: [string, string][] = [
    ['X-Probe-One', 'a'],
    ['x-probe-two', 'b'],
  ];
  for (const [name, value] of headers) set.setHeader(name, value);
  const preset = probe();
  const record = newRecord();
  for (const [name, value] of headers)
    record[name.toLowerCase()] = [name, value];
  (preset as unknown as Record<symbol, unknown>)[symbol] = record;
  for (const response of [set, preset]) {
    response.setHeader('content-type', 'text/plain');
    response.sendDate = false;
    response.writeHead(200);
  }
  const head = (response: ServerResponse) =>
    (response as unknown as { _header: unknown })._header;
  return typeof head(set) === 'string' && head(set) === head(preset)
    ? symbol
    : undefined;
}

/**
 * Returns a function that sets `headers` on a response exactly as `setHeader` does, in order.
 * `setHeader` checks each name and value and lowercases the name on every call, and storing a
 * freshly lowercased name interns a new string (for the 11 headers of every answer, several µs
 * of a `GET /api/health` that costs ~80); these never change, so they are checked once here,
 * and a response that has no header yet gets them as one prebuilt record: the shared entries
 * under a fresh object.
 */
export function headerSetter(
  headers: readonly [string, string][],
  symbol = outHeadersSymbol(),
): (raw: ServerResponse, requestId: string) => void {
  const oneByOne = (raw: ServerResponse, requestId: string) => {
    for (const [name, value] of headers) raw.setHeader(name, value);
    raw.setHeader(REQUEST_ID_HEADER, requestId);
  };
  if (symbol === undefined) return oneByOne;
  const entries = headers.map(([name, value]) => {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    return [name.toLowerCase(), name, value] as const;
  });
  return (raw, requestId) => {
    const slot = raw as unknown as Record<symbol, HeaderRecord | null>;
    if (slot[symbol] !== null) return oneByOne(raw, requestId);
    const record = newRecord();
    // A fresh [name, value] per answer: Node's appendHeader changes an entry in place, and a
    // shared one would carry that change into every later answer.
    for (const [key, name, value] of entries) record[key] = [name, value];
    // Valid by construction (request-id.ts: a UUID, or an incoming id of safe characters only).
    record[REQUEST_ID_KEY] = [REQUEST_ID_HEADER, requestId];
    slot[symbol] = record;
  };
}

/** Whether `url` (path and query, as Fastify's request.url) is the API's: `/api` or below. */
function isApi(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

/**
 * Every answer gets helmet's headers and its X-Request-Id, set on the raw response in an onRequest hook as helmet
 * itself does: an error answer, a 404 and a static file carry them too, and a route may still
 * replace one (the API reference replaces the CSP).
 *
 * Every /api answer also says `Cache-Control: no-store`: bodies carry secrets (a new client's),
 * personal data and balances, which no browser or proxy cache may keep. It is one more entry of
 * the same prebuilt record rather than an onSend hook: a hook is a step of Fastify's hook
 * runner on every answer, and a header set through the reply is checked and copied again when
 * the head is written (about a µs of a `GET /api/health`).
 */
export async function securityHeaders(app: FastifyInstance): Promise<void> {
  const headers = await helmetHeaders();
  const setHeaders = headerSetter(headers);
  const setApiHeaders = headerSetter([
    ...headers,
    ['cache-control', 'no-store'],
  ]);
  app.addHook('onRequest', (request, reply, done) => {
    (isApi(request.url) ? setApiHeaders : setHeaders)(reply.raw, request.id);
    done();
  });
}

/**
 * The API reference page boots with an inline script of the reference UI's own, so its scope
 * relaxes script-src for that page only; the console keeps the strict policy.
 */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; " +
  "base-uri 'self'; frame-ancestors 'none'";
