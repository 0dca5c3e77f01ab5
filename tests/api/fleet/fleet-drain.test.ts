import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../support/engine.ts';
import { throwawayPostgres } from '../../support/throwaway-postgres.ts';
import {
  freePort,
  migratedDataDir,
  spawnServer,
  stopServer,
} from '../../support/spawn-server.ts';
import { migratedTemplateOf, startServer } from '../../support/start-server.ts';

/**
 * Readiness and drain (CONTRACT.md "Operating a fleet", issue 18 part 3), with real processes:
 * SIGTERM turns /api/ready to 503 while the node still answers, requests in flight finish, and
 * the process exits 0, also when the signal reaches the whole process group through npm.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const serverUrl = process.env.TEST_DATABASE_URL;
/** How long a spawned node may take to start: a loaded 2-core CI machine needs more than 45 s. */
const START_MS = 120_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Where a spawned node keeps its data: a migrated DATA_DIR, or a new database on TEST_DATABASE_URL. */
async function databaseEnv(): Promise<Record<string, string>> {
  if (!serverUrl) return { DATA_DIR: await migratedDataDir('drain') };
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  // A copy of the run's migrated database (postgres-setup.ts) rather than migrating a new one.
  const template = migratedTemplateOf(serverUrl);
  await admin.query(
    `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`,
  );
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}

/**
 * `npm <args>` as the leader of its own process group (as under systemd or in a container), on
 * its own database; the group is killed after the file.
 */
async function npmInOwnGroup(args: string[], env: Record<string, string>) {
  const npm = spawn('npm', args, {
    cwd: ROOT,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...env,
      ...(await databaseEnv()),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
  }>((done) => npm.once('exit', (code, signal) => done({ code, signal })));
  const signalGroup = (signal: NodeJS.Signals) =>
    process.kill(-npm.pid!, signal);
  cleanups.push(() => {
    try {
      signalGroup('SIGKILL');
    } catch {
      // Gone already.
    }
  });
  return { output: () => output, exited, signalGroup };
}

async function ready(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/api/ready`);
  return { status: response.status, body: await response.json() };
}

/**
 * A registration whose body arrives in two halves: the request is in flight (headers read, body
 * awaited) until `finish()` sends the rest; resolves with the status of its answer.
 */
function slowRegistration(url: string) {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({
    email: `drain-${randomBytes(4).toString('hex')}@example.test`,
    password: 'password-123',
    firstName: 'Slow',
    lastName: 'Upload',
  });
  const req = request({
    host: hostname,
    port,
    method: 'POST',
    path: '/api/register',
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  });
  const answer = new Promise<number>((resolveAnswer, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolveAnswer(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  const written = new Promise<void>((done) =>
    req.write(body.slice(0, 10), () => done()),
  );
  return {
    answer,
    /**
     * Resolves once the server holds the request: its first half is written, and the server
     * has since answered a readiness request sent after it (it reads its sockets in order).
     */
    inFlight: async () => {
      await written;
      await ready(url);
    },
    finish: () => req.end(body.slice(10)),
  };
}

/** SIGTERM during a slow request: ready 503 while the node answers, the request done, exit 0. */
async function expectDrain(
  url: string,
  signal: () => void,
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
) {
  expect(await ready(url)).toEqual({ status: 200, body: { status: 'ready' } });
  const slow = slowRegistration(url);
  await slow.inFlight();
  const signalledAt = Date.now();
  signal();
  await expect
    .poll(() => ready(url))
    .toEqual({
      status: 503,
      body: { status: 'draining', requestId: expect.any(String) },
    });
  // Liveness is unaffected: the process still serves.
  expect((await fetch(`${url}/api/health`)).status).toBe(200);
  slow.finish();
  expect(await slow.answer).toBe(201);
  expect(await exited).toEqual({ code: 0, signal: null });
  expect(Date.now() - signalledAt).toBeLessThan(20_000);
}

describe('GET /api/ready', () => {
  it('answers 200 ready while the database answers, 503 "database unavailable" once it does not', async () => {
    const server = await startServer();
    try {
      expect(await ready(server.url)).toEqual({
        status: 200,
        body: { status: 'ready' },
      });
      // Health says the process lives; readiness that the database answers.
      await server.app.db.close();
      expect(await ready(server.url)).toEqual({
        status: 503,
        body: { status: 'database unavailable', requestId: expect.any(String) },
      });
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await server.close().catch(() => undefined);
    }
  }, 180_000);
});

describe('SIGTERM drains the node', () => {
  it('to the server process: ready turns 503 at once, the request in flight completes, exit 0', async () => {
    const server = await spawnServer({ ...(await databaseEnv()) }, START_MS);
    cleanups.push(() => void stopServer(server, 'SIGKILL'));
    await expectDrain(
      server.url,
      () => server.child.kill('SIGTERM'),
      server.exited,
    );
  }, 180_000);

  it('to the whole process group of `npm start` (as systemd and containers send it): the same, exit 0', async () => {
    const port = await freePort();
    const npm = await npmInOwnGroup(['start'], {
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WEB_DIR: '.tmp/no-console',
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + START_MS;
    for (;;) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`not ready:\n${npm.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // npm forwards the SIGTERM it gets to the server, which therefore gets it twice: that must
    // not make it give up (exit 1, the request cut).
    await expectDrain(url, () => npm.signalGroup('SIGTERM'), npm.exited);
    expect(npm.output()).not.toMatch(/second|exiting now/);
  }, 180_000);
});

describe('the bounds of the drain', () => {
  it('SHUTDOWN_DELAY_SECONDS: with nothing in flight, readiness still answers 503 that long before the listener closes', async () => {
    const server = await spawnServer(
      {
        ...(await databaseEnv()),
        SHUTDOWN_DELAY_SECONDS: '1.5',
      },
      START_MS,
    );
    cleanups.push(() => void stopServer(server, 'SIGKILL'));
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await expect
      .poll(() => ready(server.url))
      .toEqual({
        status: 503,
        body: { status: 'draining', requestId: expect.any(String) },
      });
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1_500);
  }, 180_000);

  it('SHUTDOWN_TIMEOUT_SECONDS: a request that never finishes does not hold the node longer (exit 1)', async () => {
    const server = await spawnServer(
      {
        ...(await databaseEnv()),
        SHUTDOWN_TIMEOUT_SECONDS: '2',
      },
      START_MS,
    );
    cleanups.push(() => void stopServer(server, 'SIGKILL'));
    const stuck = slowRegistration(server.url);
    stuck.answer.catch(() => undefined); // cut when the process exits
    await stuck.inFlight();
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 1, signal: null });
    const took = Date.now() - signalledAt;
    expect(took).toBeGreaterThanOrEqual(1_900);
    expect(took).toBeLessThan(6_000);
    expect(server.output()).toContain('SHUTDOWN_TIMEOUT_SECONDS');
  }, 180_000);
});

describe.skipIf(!onPostgres)('on PostgreSQL', () => {
  it('`npm run worker` in its process group exits 0 on SIGTERM to the group', async () => {
    const npm = await npmInOwnGroup(['run', 'worker'], { LOG_LEVEL: 'info' });
    const deadline = Date.now() + START_MS;
    while (!npm.output().includes('delivery worker started')) {
      if (Date.now() > deadline)
        throw new Error(`not started:\n${npm.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    npm.signalGroup('SIGTERM');
    expect((await npm.exited).code, npm.output()).toBe(0);
  }, 180_000);

  it('ready answers 503 "database unavailable" while PostgreSQL is down, 200 once it is back', async () => {
    const cluster = await throwawayPostgres();
    cleanups.push(() => cluster.remove());
    const server = await spawnServer({ DATABASE_URL: cluster.url }, START_MS);
    cleanups.push(() => void stopServer(server, 'SIGKILL'));
    expect(await ready(server.url)).toEqual({
      status: 200,
      body: { status: 'ready' },
    });
    cluster.stop('immediate');
    expect(await ready(server.url)).toEqual({
      status: 503,
      body: { status: 'database unavailable', requestId: expect.any(String) },
    });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    cluster.start();
    const back = Date.now() + 15_000;
    let last = await ready(server.url);
    while (last.status !== 200 && Date.now() < back) {
      await new Promise((r) => setTimeout(r, 200));
      last = await ready(server.url);
    }
    expect(last).toEqual({ status: 200, body: { status: 'ready' } });
  }, 180_000);
});
