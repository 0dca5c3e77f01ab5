import helmet from '@fastify/helmet';
import Fastify, {
  type FastifyInstance,
  type LightMyRequestResponse,
} from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOCS_CSP,
  HELMET_OPTIONS,
  securityHeaders,
} from './security-headers.ts';

/** The same routes on an app with our headers and on one with the @fastify/helmet plugin itself. */
function routes(app: FastifyInstance): FastifyInstance {
  app.get('/api/health', async () => ({ status: 'ok' }));
  app.get('/page', async (_request, reply) =>
    reply.type('text/html').send('<!doctype html><p>hi</p>'),
  );
  app.get('/api/boom', async () => {
    throw new Error('boom');
  });
  app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', DOCS_CSP);
    });
    docs.get('/api/docs', async () => 'docs');
  });
  return app;
}

const PATHS = ['/api/health', '/page', '/api/boom', '/api/docs', '/nowhere'];

/** Every header but the ones that vary per answer. */
function stable(headers: Record<string, unknown>): Record<string, unknown> {
  const { date: _date, ...rest } = headers;
  return rest;
}

function rawNames(answer: LightMyRequestResponse): string[] {
  // Node has it since 15.13; @types/node does not declare it.
  const res = answer.raw.res as unknown as { getRawHeaderNames(): string[] };
  return res.getRawHeaderNames().sort();
}

let ours: FastifyInstance;
let plugin: FastifyInstance;
beforeAll(async () => {
  ours = Fastify();
  await securityHeaders(ours);
  routes(ours);
  plugin = Fastify();
  // What securityHeaders registered before it replayed the headers: the plugin on every request.
  plugin.addHook('onSend', async (request, reply) => {
    if (request.url === '/api' || request.url.startsWith('/api/')) {
      reply.header('cache-control', 'no-store');
    }
  });
  await plugin.register(helmet, HELMET_OPTIONS);
  routes(plugin);
});
afterAll(async () => {
  await ours.close();
  await plugin.close();
});

describe('security headers', () => {
  it('are the ones @fastify/helmet sets, on answers, errors, 404s and overrides alike', async () => {
    for (const url of PATHS) {
      const [mine, theirs] = await Promise.all([
        ours.inject(url),
        plugin.inject(url),
      ]);
      expect(mine.statusCode, url).toBe(theirs.statusCode);
      expect(stable(mine.headers), url).toEqual(stable(theirs.headers));
      expect(mine.rawPayload.equals(theirs.rawPayload), url).toBe(true);
      // Spelled on the wire as helmet spells them.
      expect(rawNames(mine), url).toEqual(rawNames(theirs));
    }
  });

  it('keep the strict policy, no framing and no-store on the API', async () => {
    const health = await ours.inject('/api/health');
    expect(health.headers['content-security-policy']).toBe(
      "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';" +
        "img-src 'self' data:;font-src 'self';connect-src 'self';object-src 'none';" +
        "base-uri 'self';form-action 'self';frame-ancestors 'none'",
    );
    expect(health.headers['x-frame-options']).toBe('DENY');
    expect(health.headers['referrer-policy']).toBe('no-referrer');
    expect(health.headers['cache-control']).toBe('no-store');
    expect(health.headers['strict-transport-security']).toBeUndefined();
    const page = await ours.inject('/page');
    expect(page.headers['cache-control']).toBeUndefined();
    expect((await ours.inject('/api/docs')).headers).toMatchObject({
      'content-security-policy': DOCS_CSP,
    });
  });
});
