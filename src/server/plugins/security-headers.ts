import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Strict headers for the console: scripts only from our origin (no inline script), no framing
 * (frame-ancestors 'none', and X-Frame-Options DENY for browsers without CSP), nosniff, no
 * referrer leaks. HSTS and upgrade-insecure-requests are off because the server speaks plain
 * http; a TLS proxy in front adds HSTS.
 *
 * Every /api answer says `Cache-Control: no-store`: bodies carry secrets (a new client's),
 * personal data and balances, which no browser or proxy cache may keep.
 */
export async function securityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', async (request, reply) => {
    if (request.url === '/api' || request.url.startsWith('/api/')) {
      reply.header('cache-control', 'no-store');
    }
  });
  await app.register(helmet, {
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
