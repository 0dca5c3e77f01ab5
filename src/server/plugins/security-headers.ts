import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

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

/**
 * Every answer gets helmet's headers, set on the raw response in an onRequest hook as helmet
 * itself does: an error answer, a 404 and a static file carry them too, and a route may still
 * replace one (the API reference replaces the CSP).
 *
 * Every /api answer says `Cache-Control: no-store`: bodies carry secrets (a new client's),
 * personal data and balances, which no browser or proxy cache may keep.
 */
export async function securityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url === '/api' || request.url.startsWith('/api/')) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
  const headers = await helmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
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
