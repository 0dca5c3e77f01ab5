import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoutes, roleMatrix } from '../../../../scripts/role-matrix.ts';
import { onPostgres } from '../../../support/engine.ts';
import { httpClient } from '../../../support/http.ts';
import { uniqueEmail } from '../../../support/seed.ts';
import {
  launchServer,
  spawnServer,
  stopServer,
  migratedDataDir,
} from '../../../support/spawn-server.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/** Every call of spec §7, plus the operations calls; `{…}` stands for any path parameter. */
const SPEC_CALLS = [
  'POST /api/register',
  'GET /api/users/me',
  'PUT /api/users/me',
  'PUT /api/users/me/password',
  'POST /api/clients',
  'GET /api/clients',
  'GET /api/clients/{}',
  'PUT /api/clients/{}',
  'DELETE /api/clients/{}',
  'POST /api/clients/{}/resetSecret',
  'POST /api/clients/{}/messages/sms',
  'GET /api/clients/{}/balances/default',
  'POST /api/admin/clients',
  'PUT /api/admin/clients/{}',
  'GET /api/admin/clients',
  'GET /api/admin/clients/{}',
  'POST /api/admin/routes/split',
  'PUT /api/admin/routes/split/{}',
  'GET /api/admin/routes/split/{}',
  'GET /api/admin/routes/split',
  'DELETE /api/admin/routes/split/{}',
  'GET /api/admin/clients/{}/balances/default',
  'POST /api/admin/clients/{}/balances/{}/freecredit',
  'GET /api/admin/users',
  'GET /api/admin/users/{}',
  'PUT /api/admin/users/{}',
  'GET /api/admin/users/{}/roles',
  'POST /api/admin/users/{}/roles/add',
  'PUT /api/admin/users/{}/roles/remove',
  'GET /api/health',
  'GET /api/config',
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    PRODUCT_NAME: 'Acme Console',
    PROVIDER_NAME: 'Acme Telecom',
    PROVIDER_SHORT_NAME: 'AcmeTel',
    CURRENCY: 'USD',
    SMS_PRICE: '0.0700',
  });
});
afterAll(async () => server.close());

describe('GET /api/health', () => {
  it('answers 200 without credentials', async () => {
    const health = await httpClient(server.url).get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
  });
});

describe('GET /api/config', () => {
  it('serves the branding and prices of the environment without credentials', async () => {
    const config = await httpClient(server.url).get('/api/config');
    expect(config.status).toBe(200);
    expect(config.body).toEqual({
      productName: 'Acme Console',
      providerName: 'Acme Telecom',
      providerShortName: 'AcmeTel',
      currency: 'USD',
      smsPrice: '0.07',
    });
  });
});

describe('API description', () => {
  it('serves OpenAPI 3.1 listing every call of spec §7', async () => {
    const doc = await httpClient(server.url).get('/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\.1\./);
    const listed = new Set<string>();
    for (const [path, item] of Object.entries<Record<string, unknown>>(
      doc.body.paths,
    )) {
      for (const method of Object.keys(item)) {
        listed.add(
          `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`,
        );
      }
    }
    const missing = SPEC_CALLS.filter((call) => !listed.has(call));
    expect(missing).toEqual([]);
    expect(doc.body.components.securitySchemes).toMatchObject({
      basic: { type: 'http', scheme: 'basic' },
    });
  });

  it('describes request and response bodies from the shared schemas', async () => {
    const doc = await httpClient(server.url).get('/api/openapi.json');
    const register = doc.body.paths['/api/register'].post;
    expect(
      register.requestBody.content['application/json'].schema,
    ).toBeDefined();
    expect(doc.body.paths['/api/users/me'].get.responses['200']).toBeDefined();
  });

  it('serves a browsable reference at /api/docs', async () => {
    const docs = await fetch(`${server.url}/api/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    const page = await docs.text();
    expect(page).toContain('/api/openapi.json');
    // The reference is loaded on the first visit (plugins/api-docs.ts): its script too.
    const script = /<script src="([^"]+)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const js = await fetch(new URL(script!, docs.url));
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('application/javascript');
    expect((await js.text()).length).toBeGreaterThan(100_000);
  });
});

/** A Markdown table's cells, whatever its column padding (prettier aligns them). */
function tableCells(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((line) => line.trim().startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/^-+$/, '---')),
    );
}

describe('README', () => {
  it('shows the role matrix the admin routes declare, for every admin call of §7', () => {
    const routeTable = server.app.routeTable;
    const specAdminCalls = SPEC_CALLS.filter((call) =>
      call.includes(' /api/admin/'),
    );
    const declared = adminRoutes(routeTable).map(
      ({ method, path }) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`,
    );
    expect(declared).toEqual(expect.arrayContaining(specAdminCalls));
    const readme = readFileSync(
      join(import.meta.dirname, '../../../../README.md'),
      'utf8',
    );
    const section =
      /<!-- role-matrix:start -->([\s\S]*?)<!-- role-matrix:end -->/.exec(
        readme,
      )?.[1] ?? '';
    expect(tableCells(section)).toEqual(tableCells(roleMatrix(routeTable)));
  });
});

describe('the server process', () => {
  it('closes gracefully on SIGTERM: exit code 0 and the DATA_DIR lock released', async () => {
    const dataDir = await migratedDataDir('sigterm');
    const server = await spawnServer({ DATA_DIR: dataDir });
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(true);
    const { code, signal } = await stopServer(server, 'SIGTERM');
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(false);
  }, 60_000);

  it('runs through scripts/start.ts in one process that SIGTERM closes cleanly', async () => {
    // A WEB_DIR of its own: start.ts skips the console build and runs the server in-process.
    const server = await spawnServer(
      { DATA_DIR: await migratedDataDir('start'), WEB_DIR: '.tmp/no-console' },
      45_000,
      join(import.meta.dirname, '../../../../scripts/start.ts'),
    );
    expect((await httpClient(server.url).get('/api/health')).status).toBe(200);
    const { code } = await stopServer(server, 'SIGTERM');
    expect(code).toBe(0);
  }, 60_000);

  it('finishes a request in flight before closing', async () => {
    const server = await spawnServer({
      DATA_DIR: await migratedDataDir('inflight'),
      LOG_LEVEL: 'info',
    });
    // Registration hashes a password (tens of ms): still running when SIGTERM arrives.
    const pending = httpClient(server.url).post('/api/register', {
      email: 'inflight@example.test',
      password: 'password-123',
      firstName: 'In',
      lastName: 'Flight',
    });
    await expect
      .poll(() => server.output().includes('"url":"/api/register"'), {
        interval: 1,
      })
      .toBe(true);
    server.child.kill('SIGTERM');
    expect((await pending).status).toBe(201);
    expect((await server.exited).code).toBe(0);
  }, 60_000);

  it.each([
    [{ PORT: 'abc' }, ['PORT']],
    [{ CURRENCY: 'euro' }, ['CURRENCY']],
    [{ SMS_PRICE: 'free', LOG_LEVEL: 'loud' }, ['SMS_PRICE', 'LOG_LEVEL']],
  ])(
    'refuses to start with a bad configuration %o, naming the variable',
    async (env, names) => {
      const server = await launchServer({ DATA_DIR: 'memory://', ...env });
      const { code } = await server.exited;
      expect(code).not.toBe(0);
      expect(server.output()).toContain('Invalid configuration');
      for (const name of names) expect(server.output()).toContain(`${name}:`);
    },
    30_000,
  );

  it.skipIf(!onPostgres)(
    'survives PostgreSQL closing its idle connections (restart, failover)',
    async () => {
      const serverUrl = process.env.TEST_DATABASE_URL ?? '';
      const name = `ops_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      const server = await spawnServer({ DATABASE_URL: url.toString() });
      try {
        const anon = httpClient(server.url);
        const register = (email: string) =>
          anon.post('/api/register', {
            email,
            password: 'password-123',
            firstName: 'Fail',
            lastName: 'Over',
          });
        expect((await register(uniqueEmail())).status).toBe(201);
        const killed = await admin.query<{ pid: number }>(
          'SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        expect(killed.rowCount).toBeGreaterThan(0);
        // Until every one of those sessions has ended: their clients' sockets are closed.
        const pids = killed.rows.map((r) => r.pid);
        await expect
          .poll(
            async () =>
              (
                await admin.query(
                  'SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1::int[])',
                  [pids],
                )
              ).rowCount,
          )
          .toBe(0);
        expect((await register(uniqueEmail())).status).toBe(201);
        expect(server.child.exitCode).toBeNull();
      } finally {
        await stopServer(server);
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
    60_000,
  );

  it('exits non-zero with a clear message when the port is taken', async () => {
    const first = await spawnServer({
      DATA_DIR: await migratedDataDir('port1'),
    });
    try {
      const port = new URL(first.url).port;
      const second = await launchServer({
        DATA_DIR: await migratedDataDir('port2'),
        PORT: port,
      });
      const { code } = await second.exited;
      expect(code).not.toBe(0);
      expect(second.output()).toContain(`cannot listen on 127.0.0.1:${port}`);
    } finally {
      await stopServer(first);
    }
  }, 60_000);
});
