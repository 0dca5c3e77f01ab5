import { ServerResponse, IncomingMessage } from 'node:http';
import { connect, Socket } from 'node:net';
import helmet from '@fastify/helmet';
import Fastify, {
  type FastifyInstance,
  type LightMyRequestResponse,
} from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOCS_CSP,
  HELMET_OPTIONS,
  headerSetter,
  outHeadersSymbol,
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
  // One id for every answer of both, so that the answers compare whole.
  const genReqId = () => 'one-request-id';
  ours = Fastify({ genReqId });
  await securityHeaders(ours);
  routes(ours);
  plugin = Fastify({ genReqId });
  // What securityHeaders registered before it replayed the headers: the plugin on every request.
  await plugin.register(helmet, HELMET_OPTIONS);
  // Then no-store on the API's answers and the request id, after helmet's headers.
  plugin.addHook('onRequest', (request, reply, done) => {
    if (request.url === '/api' || request.url.startsWith('/api/')) {
      reply.raw.setHeader('cache-control', 'no-store');
    }
    reply.raw.setHeader('X-Request-Id', request.id);
    done();
  });
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

/** The status line and headers of `GET path` as they came over the socket, without Date. */
function head(url: string, path: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.destroy();
      resolve(
        text
          .slice(0, end)
          .split('\r\n')
          .filter((line) => !line.startsWith('Date: '))
          .join('\n'),
      );
    });
    socket.on('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
  });
}

describe('security headers on the wire', () => {
  it('come out byte for byte as helmet writes them, in its order and spelling', async () => {
    const [mine, theirs] = await Promise.all([
      ours.listen({ port: 0, host: '127.0.0.1' }),
      plugin.listen({ port: 0, host: '127.0.0.1' }),
    ]);
    for (const path of PATHS) {
      expect(await head(mine, path), path).toBe(await head(theirs, path));
    }
  });

  it('are written as one prebuilt record on this Node, as setHeader would write them', () => {
    const symbol = outHeadersSymbol();
    // The fast path is taken here: a Node that keeps headers otherwise falls back to setHeader.
    expect(symbol).toBeDefined();
    const headers: [string, string][] = [
      ['X-Frame-Options', 'DENY'],
      ['Origin-Agent-Cluster', '?1'],
    ];
    const response = () =>
      new ServerResponse(new IncomingMessage(new Socket()));
    const written = [
      headerSetter(headers, symbol),
      headerSetter(headers, undefined),
    ].map((set) => {
      const res = response();
      set(res, 'req-7');
      res.setHeader('content-type', 'text/plain');
      res.setHeader('x-frame-options', 'SAMEORIGIN');
      res.removeHeader('Origin-Agent-Cluster');
      return {
        names: res.getHeaderNames(),
        raw: (
          res as unknown as { getRawHeaderNames(): string[] }
        ).getRawHeaderNames(),
        frame: res.getHeader('X-Frame-Options'),
        has: res.hasHeader('origin-agent-cluster'),
        id: res.getHeader('x-request-id'),
      };
    });
    expect(written[0]).toEqual(written[1]);
    expect(written[0]).toEqual({
      names: ['x-frame-options', 'x-request-id', 'content-type'],
      raw: ['x-frame-options', 'X-Request-Id', 'content-type'],
      frame: 'SAMEORIGIN',
      has: false,
      id: 'req-7',
    });
  });

  it('leave no change one answer makes to them on the next answer', () => {
    const set = headerSetter([['Vary', 'Origin']], outHeadersSymbol());
    const response = () =>
      new ServerResponse(new IncomingMessage(new Socket()));
    const first = response();
    set(first, 'a');
    first.appendHeader('Vary', 'Accept-Encoding');
    expect(first.getHeader('vary')).toEqual(['Origin', 'Accept-Encoding']);
    const next = response();
    set(next, 'b');
    expect(next.getHeader('vary')).toBe('Origin');
  });

  it('refuse a header value Node would refuse, once, when built', () => {
    expect(() =>
      headerSetter([['X-Bad', 'a\nb']], outHeadersSymbol()),
    ).toThrow();
  });
});
