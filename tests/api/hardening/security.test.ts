import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { basic, httpClient } from '../../support/http.ts';
import { registerUser } from '../../support/seed.ts';
import {
  migratedDataDir,
  spawnServer,
  stopServer,
  tempDataDir,
} from '../../support/spawn-server.ts';
import {
  ADMIN,
  startServer,
  useMigratedTemplate,
  type TestServer,
} from '../../support/start-server.ts';

/** A built console as vite lays it out: index.html, hashed assets, pre-compressed siblings. */
function fakeConsole(): { dir: string; script: string; style: string } {
  const dir = tempDataDir('web');
  mkdirSync(join(dir, 'assets'));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
  const style = `body { margin: 0; }\n${'.a { color: red; }\n'.repeat(200)}`;
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="./assets/index-3f2a1b9c.js"></script>' +
      '</head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets/index-3f2a1b9c.js'), script);
  writeFileSync(join(dir, 'assets/index-3f2a1b9c.js.gz'), gzipSync(script));
  writeFileSync(
    join(dir, 'assets/index-3f2a1b9c.js.br'),
    brotliCompressSync(script),
  );
  // No pre-compressed siblings: compressed on the fly.
  writeFileSync(join(dir, 'assets/index-77aa00ee.css'), style);
  return { dir, script, style };
}

const web = fakeConsole();
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ WEB_DIR: web.dir });
});
afterAll(async () => server.close());

function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name as string, values]),
  );
}

describe('security headers', () => {
  it('serves the console with a strict CSP, no framing, nosniff and a referrer policy', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = directives(page.headers.get('content-security-policy'));
    const scripts = csp.get('script-src') ?? csp.get('default-src');
    expect(scripts).toBeDefined();
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-powered-by')).toBeNull();
  });

  it('sends the same headers with API answers', async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    expect(
      directives(health.headers.get('content-security-policy')).get(
        'frame-ancestors',
      ),
    ).toEqual(["'none'"]);
  });

  it('keeps frame-ancestors none on the API reference page', async () => {
    const docs = await fetch(`${server.url}/api/docs`);
    expect(
      directives(docs.headers.get('content-security-policy')).get(
        'frame-ancestors',
      ),
    ).toEqual(["'none'"]);
  });
});

describe('static assets', () => {
  it('caches hashed assets for a year and revalidates index.html', async () => {
    const asset = await fetch(`${server.url}/assets/index-3f2a1b9c.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect(await asset.text()).toBe(web.script);
    const index = await fetch(`${server.url}/index.html`);
    expect(index.headers.get('cache-control')).toBe('no-cache');
  });

  it.each(['br', 'gzip'])(
    'serves assets %s-compressed when the client accepts it',
    async (encoding) => {
      for (const name of ['index-3f2a1b9c.js', 'index-77aa00ee.css']) {
        // fetch would decode the body itself; node:http shows the bytes as sent.
        const { headers, body } = await rawGet(
          `${server.url}/assets/${name}`,
          encoding,
        );
        expect(headers['content-encoding'], name).toBe(encoding);
        expect(headers['cache-control'], name).toBe(
          'public, max-age=31536000, immutable',
        );
        expect(body.length).toBeLessThan(1000);
        if (encoding === 'gzip') {
          const original = name.endsWith('.js') ? web.script : web.style;
          expect(gunzipSync(body).toString()).toBe(original);
        }
      }
    },
  );

  it('serves plain bytes to a client that accepts no compression', async () => {
    const { headers, body } = await rawGet(
      `${server.url}/assets/index-3f2a1b9c.js`,
      'identity',
    );
    expect(headers['content-encoding']).toBeUndefined();
    expect(body.toString()).toBe(web.script);
  });

  it('answers an unknown asset with 404 in the error shape', async () => {
    const missing = await httpClient(server.url).get('/assets/nope-123.js');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});

async function rawGet(url: string, acceptEncoding: string) {
  const { request } = await import('node:http');
  return new Promise<{
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('no WWW-Authenticate, ever', () => {
  it('answers 401, 403 and 429 without asking the browser for Basic', async () => {
    const anon = httpClient(server.url);
    const answers = [
      await anon.get('/api/users/me'),
      await anon.get('/api/clients', { authorization: 'Basic !!!' }),
      await anon.get('/api/clients', { authorization: 'Bearer abc' }),
      await anon.get('/api/admin/users'),
    ];
    const { http, email } = await registerUser(server.url);
    answers.push(await http.get('/api/admin/users'));
    for (let i = 0; i < 12; i++) {
      answers.push(
        await anon.get('/api/users/me', {
          authorization: basic(email, `wrong-${i}`),
        }),
      );
    }
    const statuses = new Set(answers.map((a) => a.status));
    expect(statuses).toEqual(new Set([401, 403, 429]));
    for (const answer of answers) {
      expect(answer.headers.get('www-authenticate')).toBeNull();
      expect(answer.body).toMatchObject({ statusCode: answer.status });
    }
  });
});

describe('errors hide internals', () => {
  it('masks a 5xx message and points at the request id instead', async () => {
    const app = await buildApp(
      useMigratedTemplate(
        loadConfig({
          DATA_DIR: 'memory://',
          LOG_LEVEL: 'silent',
          WEB_DIR: '.tmp/no-console',
        }),
      ),
    );
    app.get('/api/boom', async () => {
      throw new Error('connection to postgres://admin:hunter2@db failed');
    });
    try {
      const answer = await app.inject({ method: 'GET', url: '/api/boom' });
      expect(answer.statusCode).toBe(500);
      const body = answer.json();
      expect(body).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        code: 'internal_error',
        message: expect.stringMatching(/request id [0-9a-f-]{36}/),
        requestId: answer.headers['x-request-id'],
      });
      expect(body.message).toContain(body.requestId);
      expect(answer.body).not.toContain('hunter2');
      expect(answer.body).not.toContain('postgres');
    } finally {
      await app.close();
    }
  });

  it('answers malformed JSON with 400 in the error shape, not 500', async () => {
    const answer = await httpClient(server.url).post(
      '/api/register',
      '{"email": "a@example.test", "password": ',
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
    });
  });
});

describe('logs', () => {
  it('never contain an Authorization header, a password or a client secret', async () => {
    const logged = await spawnServer({
      DATA_DIR: await migratedDataDir('logs'),
      LOG_LEVEL: 'trace',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    const password = 'first-Passw0rd-ZQX';
    const newPassword = 'second-Passw0rd-ZQY';
    const wrongPassword = 'wrong-Passw0rd-ZQW';
    try {
      const { http, email } = await registerUser(logged.url, { password });
      expect((await http.get('/api/users/me')).status).toBe(200);
      const wrong = httpClient(logged.url, {
        username: email,
        password: wrongPassword,
      });
      expect((await wrong.get('/api/users/me')).status).toBe(401);
      const created = await http.post('/api/clients', { name: 'Logged' });
      expect(created.status).toBe(201);
      const { id, secret } = created.body as { id: string; secret: string };
      const asClient = httpClient(logged.url, {
        username: id,
        password: secret,
      });
      expect(
        (await asClient.get(`/api/clients/${id}/balances/default`)).status,
      ).toBe(200);
      const reset = await http.post(`/api/clients/${id}/resetSecret`, {});
      const newSecret = (reset.body as { secret: string }).secret;
      const admin = httpClient(logged.url, {
        username: ADMIN.email,
        password: ADMIN.password,
      });
      expect((await admin.get('/api/admin/users')).status).toBe(200);
      expect(
        (
          await http.put('/api/users/me/password', {
            currentPassword: password,
            newPassword,
          })
        ).status,
      ).toBe(204);
      // Bodies the server cannot parse or refuses must not be echoed to the log either.
      await httpClient(logged.url).post(
        '/api/register',
        `{"email":"x@example.test","password":"${password}"`,
      );
      await httpClient(logged.url).post('/api/register', {
        email: 'not-an-email',
        password: newPassword,
      });

      const output = logged.output();
      expect(output).toContain('incoming request');
      const forbidden = [
        password,
        newPassword,
        wrongPassword,
        ADMIN.password,
        secret,
        newSecret,
        basic(email, password).slice('Basic '.length),
        basic(id, secret).slice('Basic '.length),
        basic(ADMIN.email, ADMIN.password).slice('Basic '.length),
      ];
      for (const value of forbidden) {
        expect(output.includes(value), `log contains ${value}`).toBe(false);
      }
      expect(output.toLowerCase()).not.toMatch(/"authorization":"basic/);
    } finally {
      await stopServer(logged);
    }
  }, 60_000);
});
