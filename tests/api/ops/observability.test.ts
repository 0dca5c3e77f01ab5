import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMessage } from '../../support/delivery.ts';
import { eventually } from '../../support/eventually.ts';
import { httpClient } from '../../support/http.ts';
import {
  adminHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../support/seed.ts';
import {
  migratedDataDir,
  spawnServer,
  stopServer,
} from '../../support/spawn-server.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * CONTRACT.md "Running it in production" (issue 29 parts 3–5): what the server is (GET
 * /api/version, build_info, the first log line), the simulator never silent (start warnings,
 * delivery_method_simulated, Operations, messages and callbacks), request ids on every answer,
 * and the request latency histogram with bounded labels.
 */
const ROOT = join(import.meta.dirname, '../../..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const METHODS = ['MELROSE_SMPP', 'VONAGE_SMS', 'WORLD_SPECIAL'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The commit git itself names for this checkout; null when it is not one (or git is absent). */
function gitHead(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

/** The number of the newest versioned migration file, e.g. "029". */
function newestMigration(): string {
  return readdirSync(join(ROOT, 'migrations'))
    .map((name) => /^(\d+)-.*\.sql$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .sort((a, b) => Number(a) - Number(b))
    .at(-1)!;
}

/** The value of one sample (`name{labels}`) in Prometheus text; undefined when absent. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = match[2] ? match[2].split(',') : [];
    if (wanted.every((label) => have.includes(label))) return Number(match[3]);
  }
  return undefined;
}

const scrape = async (url: string) => (await fetch(`${url}/metrics`)).text();

let server: TestServer;
let vonage: TestServer;
beforeAll(async () => {
  // Nothing configured: every method goes to the simulator.
  server = await startServer({ STATUS_CALLBACK_ALLOW_PRIVATE: 'true' });
  // Vonage configured (pointed at a port nobody answers: nothing is sent in these tests).
  vonage = await startServer({
    VONAGE_API_KEY: 'key',
    VONAGE_API_SECRET: 'secret',
    VONAGE_BASE_URL: 'http://127.0.0.1:9',
  });
});
afterAll(async () => {
  await server?.close();
  await vonage?.close();
});

describe('GET /api/version', () => {
  it('names the release, commit, schema and engine, without credentials', async () => {
    const answer = await httpClient(server.url).get('/api/version');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      version: PACKAGE.version,
      commit: gitHead(),
      schemaVersion: newestMigration(),
      engine: process.env.TEST_DATABASE_URL
        ? { kind: 'postgres', where: expect.any(String) }
        : { kind: 'pglite', where: expect.stringMatching(/^memory:\/\//) },
    });
    // Never a credential of DATABASE_URL.
    expect(JSON.stringify(answer.body)).not.toMatch(/postgres(ql)?:\/\//);
  });

  it('is the same release and commit as build_info on /metrics', async () => {
    const { body } = await httpClient(server.url).get('/api/version');
    const text = await scrape(server.url);
    expect(
      sample(text, 'build_info', {
        version: body.version,
        commit: body.commit ?? 'unknown',
      }),
    ).toBe(1);
  });
});

describe('the simulator is never silent', () => {
  it('/metrics says which methods are simulated: all with nothing configured, not a configured one', async () => {
    const bare = await scrape(server.url);
    for (const method of METHODS) {
      expect(sample(bare, 'delivery_method_simulated', { method })).toBe(1);
    }
    const withVonage = await scrape(vonage.url);
    expect(
      sample(withVonage, 'delivery_method_simulated', { method: 'VONAGE_SMS' }),
    ).toBe(0);
    expect(
      sample(withVonage, 'delivery_method_simulated', {
        method: 'MELROSE_SMPP',
      }),
    ).toBe(1);
  });

  it('the Operations call marks each simulated method', async () => {
    const simulated = async (url: string) =>
      Object.fromEntries(
        (await adminHttp(url).get('/api/admin/operations')).body.methods.map(
          (m: { method: string; simulated: boolean }) => [
            m.method,
            m.simulated,
          ],
        ),
      );
    expect(await simulated(server.url)).toEqual({
      MELROSE_SMPP: true,
      VONAGE_SMS: true,
      WORLD_SPECIAL: true,
    });
    expect(await simulated(vonage.url)).toEqual({
      MELROSE_SMPP: true,
      VONAGE_SMS: false,
      WORLD_SPECIAL: true,
    });
  });

  it('a simulated message says so, and so does its DELIVERED callback', async () => {
    const received: any[] = [];
    const receiver = http.createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const { port } = receiver.address() as AddressInfo;
      const owner = await registerUser(server.url);
      const client = await createClient(owner.http);
      await giveCredit(server.url, client.id, 1);
      await owner.http.put(`/api/clients/${client.id}`, {
        statusCallbackUrl: `http://127.0.0.1:${port}/hook`,
      });
      const sent = await owner.http.post(
        `/api/clients/${client.id}/messages/sms`,
        { sender: 'Shop', recipient: '+44 7700 900123', body: 'Simulated' },
      );
      expect(sent.status).toBe(201);
      const message = await waitForMessage(owner.http, client.id, sent.body.id);
      expect(message).toMatchObject({ state: 'DELIVERED', simulated: true });
      const delivered = await eventually(
        () =>
          received.find(
            (e) => e.messageId === sent.body.id && e.state === 'DELIVERED',
          ),
        (e) => e !== undefined,
        { what: 'the DELIVERED callback' },
      );
      expect(delivered.simulated).toBe(true);
    } finally {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  });
});

describe('X-Request-Id', () => {
  it('is on every answer: success, 401, 404, 400 and /metrics, a new one each', async () => {
    const anon = httpClient(server.url);
    const answers = [
      await anon.get('/api/health'),
      await anon.get('/api/version'),
      await anon.get('/api/users/me'),
      await anon.get('/api/no/such/route'),
      await anon.post('/api/register', '{not json'),
      await anon.get('/metrics'),
      // Refused before any route runs: a body announced over the limit.
      await anon.post('/api/register', 'x'.repeat(100 * 1024)),
    ];
    expect(answers.map((a) => a.status)).toEqual([
      200, 200, 401, 404, 400, 200, 413,
    ]);
    const ids = answers.map((a) => a.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps a valid incoming id and replaces an invalid one', async () => {
    const anon = httpClient(server.url);
    const id = async (given: string) =>
      (await anon.get('/api/health', { 'x-request-id': given })).headers.get(
        'x-request-id',
      );
    expect(await id('lb-7f3a:0001.a_b')).toBe('lb-7f3a:0001.a_b');
    expect(await id('x'.repeat(128))).toBe('x'.repeat(128));
    for (const bad of ['x'.repeat(129), 'two words', 'a,b', '<script>']) {
      const made = await id(bad);
      expect(made, bad).toMatch(UUID);
    }
  });

  it('is in the body of a 5xx, the same as the header', async () => {
    const broken = await startServer();
    try {
      await broken.app.db.close();
      const answer = await adminHttp(broken.url).get('/api/admin/users', {
        'x-request-id': 'trace-5xx-1',
      });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('x-request-id')).toBe('trace-5xx-1');
      expect(answer.body).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        code: 'unavailable',
        message: 'The service is temporarily unavailable. Try again shortly.',
        requestId: 'trace-5xx-1',
      });
      const ready = await httpClient(broken.url).get('/api/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.requestId).toBe(ready.headers.get('x-request-id'));
    } finally {
      await broken.close().catch(() => undefined); // its database is closed already
    }
  });
});

describe('/metrics names and labels', () => {
  it('has http_request_duration_seconds by route template, one unmatched series for unknown URLs', async () => {
    const owner = await registerUser(vonage.url);
    const client = await createClient(owner.http);
    await owner.http.get(`/api/clients/${client.id}`);
    for (let i = 0; i < 5; i++) {
      await fetch(`${vonage.url}/api/missing-${i}-${Date.now()}`);
    }
    const text = await scrape(vonage.url);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/clients/:clientId',
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(5);
    expect(text).not.toContain('missing-');
    expect(text).not.toContain(client.id);
  });

  it('follows Prometheus naming: counters end in _total, nothing else does', async () => {
    const text = await scrape(server.url);
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(
      ([, name, type]) => ({ name: name!, type: type! }),
    );
    expect(types.length).toBeGreaterThan(20);
    for (const { name, type } of types) {
      expect(name.endsWith('_total'), `${type} ${name}`).toBe(
        type === 'counter',
      );
    }
    // The sums of prom-client's labelled gauges are left to PromQL.
    expect(text).not.toContain('nodejs_active_handles_total');
    expect(sample(text, 'nodejs_active_handles')).toBeGreaterThan(0);
  });
});

describe('the start log', () => {
  it('first names the release, commit, schema and engine, then warns once per simulated method; the access line has the request id', async () => {
    const running = await spawnServer({
      DATA_DIR: await migratedDataDir('identity'),
      LOG_LEVEL: 'info',
    });
    try {
      const version = (
        await httpClient(running.url).get('/api/version', {
          'x-request-id': 'find-me-in-the-log',
        })
      ).body;
      expect(version.engine.kind).toMatch(/^(postgres-embedded|pglite)$/);
      const lines = await eventually(
        () =>
          running
            .output()
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line)),
        (logged) =>
          logged.some(
            (l) =>
              l.reqId === 'find-me-in-the-log' && l.msg === 'request completed',
          ),
        { what: 'the access line' },
      );
      expect(lines[0]).toMatchObject({
        version: PACKAGE.version,
        commit: gitHead(),
        schemaVersion: newestMigration(),
        engine: version.engine,
      });
      expect(lines[0].msg).toContain(PACKAGE.version);
      expect(lines[0].msg).toContain(version.engine.kind);
      for (const method of METHODS) {
        const warnings = lines.filter(
          (l) => l.level === 40 && l.method === method && l.simulated === true,
        );
        expect(warnings, method).toHaveLength(1);
        expect(warnings[0].msg).toContain('simulator');
      }
      const access = lines.find((l) => l.reqId === 'find-me-in-the-log');
      expect(access).toMatchObject({
        msg: 'request completed',
        req: { method: 'GET', url: '/api/version' },
        res: { statusCode: 200 },
      });
    } finally {
      await stopServer(running);
    }
  }, 90_000);
});
