import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import {
  spawnServer,
  stopServer,
  tempDataDir,
  type SpawnedServer,
} from '../tests/support/spawn-server.ts';
import { scratchDatabase } from '../tests/support/scratch-database.ts';

/** The admin the benchmarks bootstrap to grant free credit. */
export const BENCH_ADMIN = {
  email: 'bench-admin@example.test',
  password: 'bench-admin-password',
};

export interface BenchServer extends SpawnedServer {
  database: string;
  /** The embedded database's DATA_DIR (undefined on DATABASE_URL). */
  dataDir: string | undefined;
  /** On DATABASE_URL: the database made for this server there. */
  databaseUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the real server as its own process: on a fresh embedded DATA_DIR (the engine of
 * DATABASE_ENGINE, PostgreSQL by default as for npm start), or, when DATABASE_URL is set, on a
 * new database of that PostgreSQL server, dropped at stop: one bench's rows and the delivery
 * jobs it left queued are not the next one's load.
 */
export async function startBenchServer(
  extraEnv: Record<string, string> = {},
): Promise<BenchServer> {
  const scratch = process.env.DATABASE_URL
    ? await scratchDatabase(process.env.DATABASE_URL, 'bench')
    : undefined;
  const databaseUrl = scratch?.url;
  // npm start's engine on a new DATA_DIR unless DATABASE_ENGINE says otherwise.
  const engine = process.env.DATABASE_ENGINE ?? 'postgres';
  const env: Record<string, string> = {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    ...(databaseUrl
      ? { DATABASE_URL: databaseUrl }
      : { DATA_DIR: tempDataDir('bench'), DATABASE_ENGINE: engine }),
    ...extraEnv,
  };
  const server = await spawnServer(env, 120_000).catch(async (error) => {
    await scratch?.drop();
    throw error;
  });
  return {
    ...server,
    database: databaseUrl
      ? `PostgreSQL (${new URL(databaseUrl).host})`
      : `embedded ${engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}`,
    dataDir: env.DATA_DIR,
    databaseUrl,
    stop: async () => {
      await stopServer(server);
      await scratch?.drop();
    },
  };
}

export function basicHeader(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  auth?: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(auth ? { authorization: auth } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

/** Throws, with the answer, unless `answer` has `status`. */
export function expectStatus(
  answer: { status: number; text: string },
  status: number,
  what: string,
): void {
  if (answer.status !== status) {
    throw new Error(`${what} answered ${answer.status}: ${answer.text}`);
  }
}

/** Registers a fresh user; returns their Basic header. */
export async function registerBenchUser(url: string): Promise<string> {
  const email = `bench-${randomBytes(5).toString('hex')}@example.test`;
  const password = 'bench-password-1';
  const answer = await call(url, 'POST', '/api/register', {
    email,
    password,
    firstName: 'Bench',
    lastName: 'Mark',
  });
  if (answer.status !== 201) {
    throw new Error(`register answered ${answer.status}: ${answer.text}`);
  }
  return basicHeader(email, password);
}

/**
 * A fresh customer with one API client holding `credit` (free credit by the bench admin);
 * returns the customer's Basic header, the client's id and the client's own Basic header.
 * A client's default balance has the client's id (README, Accountability).
 */
export async function fundedBenchClient(
  url: string,
  credit: string,
): Promise<{ userAuth: string; clientId: string; clientAuth: string }> {
  const userAuth = await registerBenchUser(url);
  const created = await call(
    url,
    'POST',
    '/api/clients',
    { name: 'bench' },
    userAuth,
  );
  expectStatus(created, 201, 'create client');
  const client = JSON.parse(created.text) as { id: string; secret: string };
  const granted = await call(
    url,
    'POST',
    `/api/admin/clients/${client.id}/balances/${client.id}/freecredit`,
    { amount: credit },
    basicHeader(BENCH_ADMIN.email, BENCH_ADMIN.password),
  );
  expectStatus(granted, 200, 'free credit');
  return {
    userAuth,
    clientId: client.id,
    clientAuth: basicHeader(client.id, client.secret),
  };
}

export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

export function seconds(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * POSTs single sends of a client over `connections` keep-alive connections (the same body but
 * for its number `n`); `send(n)` resolves with the answer's status. `close()` drops the sockets.
 */
export function smsSender(
  url: string,
  clientId: string,
  clientAuth: string,
  connections: number,
): { send(n: number): Promise<number>; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(`${url}/api/clients/${clientId}/messages/sms`);
  const send = (n: number) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({
        sender: 'Bench',
        recipient: '447700900123',
        body: `bench message ${n}`,
      });
      const req = request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: clientAuth,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}
