import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { httpClient } from '../../support/http.ts';
import { uniqueEmail } from '../../support/seed.ts';
import {
  launchServer,
  spawnServer,
  stopServer,
  migratedDataDir,
  type SpawnedServer,
} from '../../support/spawn-server.ts';

// Real server processes on a real DATA_DIR: first opens of a directory take a few seconds.
const running: SpawnedServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await stopServer(server, 'SIGKILL');
});

async function start(env: Record<string, string>) {
  const server = await spawnServer(env);
  running.push(server);
  return server;
}

interface Written {
  email: string;
  password: string;
  clientId?: string;
}

/** Registers a user then creates one client for them; records each write once acknowledged. */
async function writeOne(url: string, written: Written[]): Promise<void> {
  const email = uniqueEmail('durable');
  const password = 'password-123';
  const registered = await httpClient(url).post('/api/register', {
    email,
    password,
    firstName: 'Dura',
    lastName: 'Ble',
  });
  if (registered.status !== 201) return;
  const record: Written = { email, password };
  written.push(record);
  const created = await httpClient(url, {
    username: email,
    password,
  }).post('/api/clients', { name: `client of ${email}` });
  if (created.status === 201) record.clientId = created.body.id;
}

describe('the embedded database survives SIGKILL', () => {
  it('keeps every acknowledged write after kill -9 and a restart on the same DATA_DIR', async () => {
    const dataDir = await migratedDataDir('durable');
    const first = await start({ DATA_DIR: dataDir });
    const written: Written[] = [];
    let stop = false;
    // Four writers keep writing; the kill lands while requests are in flight.
    const writers = Array.from({ length: 4 }, async () => {
      while (!stop) await writeOne(first.url, written).catch(() => undefined);
    });
    await expect
      .poll(() => written.filter((w) => w.clientId).length, {
        timeout: 60_000, // the test's own limit governs
        interval: 20,
      })
      .toBeGreaterThanOrEqual(24);
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await start({ DATA_DIR: dataDir });
    for (const { email, password, clientId } of written) {
      const http = httpClient(second.url, { username: email, password });
      const me = await http.get('/api/users/me');
      expect(me.status, email).toBe(200);
      expect(me.body.email).toBe(email);
      if (clientId) {
        const client = await http.get(`/api/clients/${clientId}`);
        expect(client.status, clientId).toBe(200);
      }
    }
  }, 90_000);
});

describe('the DATA_DIR lock', () => {
  it('refuses a second server on the same DATA_DIR while the first keeps serving', async () => {
    const dataDir = await migratedDataDir('lock');
    const first = await start({ DATA_DIR: dataDir });
    const holder = JSON.parse(
      readFileSync(join(dataDir, 'server.lock'), 'utf8'),
    );
    expect(holder.pid).toBe(first.child.pid);

    const second = await launchServer({ DATA_DIR: dataDir });
    running.push(second);
    const { code } = await second.exited;
    expect(code).not.toBe(0);
    expect(second.output()).toContain(
      `DATA_DIR ${dataDir} is in use by another server (pid ${first.child.pid})`,
    );

    expect((await httpClient(first.url).get('/api/health')).status).toBe(200);
    const registered = await httpClient(first.url).post('/api/register', {
      email: uniqueEmail(),
      password: 'password-123',
      firstName: 'Still',
      lastName: 'Serving',
    });
    expect(registered.status).toBe(201);
  }, 60_000);

  it('takes over the stale lock of a killed server', async () => {
    const dataDir = await migratedDataDir('stale');
    const first = await start({ DATA_DIR: dataDir });
    const email = uniqueEmail();
    await httpClient(first.url).post('/api/register', {
      email,
      password: 'password-123',
      firstName: 'Before',
      lastName: 'Kill',
    });
    await stopServer(first, 'SIGKILL');
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(true);

    const second = await start({ DATA_DIR: dataDir });
    const me = await httpClient(second.url, {
      username: email,
      password: 'password-123',
    }).get('/api/users/me');
    expect(me.status).toBe(200);
  }, 60_000);

  it('takes over a lock naming a process that no longer exists', async () => {
    const dataDir = await migratedDataDir('dead');
    writeFileSync(join(dataDir, 'server.lock'), JSON.stringify({ pid: 1e7 }));
    const server = await start({ DATA_DIR: dataDir });
    expect(
      JSON.parse(readFileSync(join(dataDir, 'server.lock'), 'utf8')).pid,
    ).toBe(server.child.pid);
  }, 60_000);
});
