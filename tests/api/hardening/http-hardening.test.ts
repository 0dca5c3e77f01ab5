import { writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { isDatabaseUnavailable } from '../../../src/server/plugins/error-handler.ts';
import { onPostgres } from '../../support/engine.ts';
import { basic, httpClient } from '../../support/http.ts';
import { registerUser } from '../../support/seed.ts';
import {
  migratedDataDir,
  spawnServer,
  stopServer,
  tempDataDir,
  type SpawnedServer,
} from '../../support/spawn-server.ts';
import {
  startServer,
  useMigratedTemplate,
  type TestServer,
} from '../../support/start-server.ts';

/* Issue 9, finding 9 (server side): caching, framing, a lost database, a huge body. */

function consoleDir(): string {
  const dir = tempDataDir('web');
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div></body></html>',
  );
  return dir;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ WEB_DIR: consoleDir() });
});
afterAll(async () => server.close());

describe('headers', () => {
  it('says Cache-Control: no-store on every /api answer, errors included', async () => {
    const { http, email } = await registerUser(server.url);
    const anon = httpClient(server.url);
    const answers = [
      await anon.get('/api/health'),
      await anon.get('/api/config'),
      await http.get('/api/users/me'),
      await http.post('/api/clients', { name: 'Shop' }), // carries the secret
      await anon.get('/api/users/me'), // 401
      await anon.get('/api/users/me', {
        authorization: basic(email, 'wrong'),
      }),
      await anon.get('/api/nowhere'), // 404
      await anon.post('/api/register', '{"email": '), // 400
      await http.get('/api/admin/users'), // 403
    ];
    for (const answer of answers) {
      expect(answer.headers.get('cache-control'), String(answer.status)).toBe(
        'no-store',
      );
    }
    expect(new Set(answers.map((a) => a.status))).toEqual(
      new Set([200, 201, 400, 401, 403, 404]),
    );
  });

  it('refuses framing with X-Frame-Options: DENY, matching frame-ancestors none', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain(
      "frame-ancestors 'none'",
    );
    expect(page.headers.get('cache-control')).not.toBe('no-store');
    const api = await fetch(`${server.url}/api/health`);
    expect(api.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('a database that is gone', () => {
  it('answers 503 with Retry-After, not 500, once the embedded database is closed', async () => {
    const app = await buildApp(
      useMigratedTemplate(
        loadConfig({
          DATA_DIR: 'memory://',
          LOG_LEVEL: 'silent',
          WEB_DIR: '.tmp/no-console',
          ADMIN_EMAIL: 'admin@example.test',
          ADMIN_PASSWORD: 'admin-password-1',
        }),
      ),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const url = `http://127.0.0.1:${address.port}`;
    try {
      const { http } = await registerUser(url);
      await app.db.close();
      const answers = [
        await httpClient(url).post('/api/register', {
          email: 'late@example.test',
          password: 'password-123',
          firstName: 'Late',
          lastName: 'Comer',
          organization: '',
        }),
        await http.get('/api/clients'),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(answer.body).toEqual({
          statusCode: 503,
          error: 'Service Unavailable',
          code: 'unavailable',
          message: 'The service is temporarily unavailable. Try again shortly.',
          requestId: answer.headers.get('x-request-id'),
        });
      }
    } finally {
      await app.close().catch(() => undefined); // its database is closed already
    }
  });

  it('knows the drivers’ connection errors, and only those', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    for (const error of [
      coded('57P01'), // terminating connection due to administrator command
      coded('08006'),
      coded('ECONNREFUSED'),
      new Error('Connection terminated unexpectedly'),
      new Error('PGlite is closed'),
      new Error('wrapped', { cause: coded('57P03') }),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
    for (const error of [
      coded('23505'),
      coded('22021'),
      new Error('connection to postgres://admin:hunter2@db failed'),
      'ECONNREFUSED',
      undefined,
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });

  it.skipIf(!onPostgres)(
    'answers 503 while PostgreSQL is unreachable, and recovers when it is back',
    async () => {
      // The server reaches PostgreSQL through a TCP relay that the test cuts and restores.
      const [row] = await server.app.db.query<{ name: string }>(
        'SELECT current_database() AS name',
      );
      const target = new URL(process.env.TEST_DATABASE_URL!);
      const sockets = new Set<Socket>();
      const relay = createServer((inbound) => {
        const outbound = connect(Number(target.port || 5432), target.hostname);
        for (const s of [inbound, outbound]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
      const port = (relay.address() as AddressInfo).port;
      const proxied = new URL(target);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      proxied.pathname = `/${row!.name}`;
      const app = await buildApp(
        loadConfig({
          DATABASE_URL: proxied.toString(),
          LOG_LEVEL: 'silent',
          WEB_DIR: '.tmp/no-console',
        }),
      );
      await app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      try {
        const { http } = await registerUser(url);
        expect((await http.get('/api/clients')).status).toBe(200);
        await new Promise<void>((r) => {
          relay.close(() => r());
          for (const s of sockets) s.destroy();
        });
        const answers = [
          await http.get('/api/clients'),
          await http.get('/api/clients'),
        ];
        for (const answer of answers) {
          expect(answer.status).toBe(503);
          expect(answer.headers.get('retry-after')).toBe('5');
        }
        await new Promise<void>((r) => relay.listen(port, '127.0.0.1', r));
        let status = 0;
        for (let i = 0; i < 20 && status !== 200; i++) {
          status = (await http.get('/api/clients')).status;
        }
        expect(status).toBe(200);
      } finally {
        await app.close().catch(() => undefined);
        for (const s of sockets) s.destroy();
        relay.close();
      }
    },
  );
});

describe('a body far over the limit', () => {
  let spawned: SpawnedServer;
  beforeAll(async () => {
    spawned = await spawnServer({ DATA_DIR: await migratedDataDir('big') });
  }, 60_000);
  afterAll(async () => {
    await stopServer(spawned);
  });

  it('gets its 413 read by the client, for 5 MB announced or streamed', async () => {
    const body = JSON.stringify({ email: 'a'.repeat(5_000_000) });
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${spawned.url}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(answer.status).toBe(413);
      // Refused in an onRequest hook, after the one setting the security headers.
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('x-request-id')).toBeTruthy();
      expect(await answer.json()).toEqual({
        statusCode: 413,
        error: 'Payload Too Large',
        code: 'payload_too_large',
        message: 'Request body is too large',
      });
    }
    const chunk = new TextEncoder().encode('a'.repeat(65_536));
    let sent = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (sent >= 5_000_000) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const streamed = await fetch(`${spawned.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    // The server still answers.
    expect((await fetch(`${spawned.url}/api/health`)).status).toBe(200);
  });
});
