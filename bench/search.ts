/**
 * `npm run bench:search`: the admin search (`GET /api/admin/users?q=` and
 * `GET /api/admin/clients?q=`) over 1,000 users with a client each. Prints p50 and p95 of
 * sequential searches over real HTTP. Target: p95 under 50 ms. The rows are written straight
 * into the database before the server starts (registering 1,000 users through the API would
 * time the password hashing, not the search).
 */
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/open.ts';
import {
  spawnServer,
  stopServer,
  tempDataDir,
} from '../tests/support/spawn-server.ts';
import { basicHeader, BENCH_ADMIN, seconds } from './server.ts';
import { reportFigures } from './report.ts';

const USERS = 1000;
const SEARCHES = seconds('BENCH_SEARCHES', 300);

const databaseUrl = process.env.DATABASE_URL;
const env: Record<string, string> = {
  LOG_LEVEL: 'warn',
  ADMIN_EMAIL: BENCH_ADMIN.email,
  ADMIN_PASSWORD: BENCH_ADMIN.password,
  ...(databaseUrl
    ? { DATABASE_URL: databaseUrl }
    : { DATA_DIR: tempDataDir('bench-search') }),
};

const tag = Date.now().toString(36);
const db = await openDatabase(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
await db.query(
  `WITH u AS (
     INSERT INTO users (email, password_hash, first_name, last_name, organization)
     SELECT 'person' || n || '-' || $1 || '@example' || (n % 7) || '.test', 'x',
            'First' || n, 'Last' || (n * 7 % 1000), 'Org ' || (n % 50)
     FROM generate_series(1, $2::int) AS n
     RETURNING id, first_name
   ), c AS (
     INSERT INTO clients (user_id, name, secret_hash)
     SELECT id, 'Shop of ' || first_name, 'x' FROM u
     RETURNING id
   )
   INSERT INTO balances (id, client_id, currency) SELECT id, id, 'EUR' FROM c`,
  [tag, USERS],
);
await db.close();

const server = await spawnServer(env, 120_000);
const auth = basicHeader(BENCH_ADMIN.email, BENCH_ADMIN.password);

async function timed(path: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${server.url}${path}`, {
    headers: { authorization: auth },
  });
  await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return performance.now() - start;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** Searches a mix of e-mail parts, names, organizations, misses and client names. */
async function run(
  label: string,
  path: (i: number) => string,
): Promise<number> {
  await timed(path(0)); // warm the connection and the credential cache
  const times: number[] = [];
  for (let i = 0; i < SEARCHES; i += 1) times.push(await timed(path(i)));
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 0.95);
  console.log(
    `${label}: p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${SEARCHES} searches`,
  );
  return p95;
}

try {
  const queries = [
    (i: number) => `person${(i * 37) % USERS}-`,
    (i: number) => `EXAMPLE${i % 7}`,
    (i: number) => `last${(i * 13) % 1000}`,
    (i: number) => `org ${i % 50}`,
    () => 'no-such-person',
    () => `first1`,
  ];
  const users = await run(
    `GET /api/admin/users?q= over ${USERS} users (${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'})`,
    (i) =>
      `/api/admin/users?q=${encodeURIComponent(queries[i % queries.length]!(i))}`,
  );
  const clients = await run(
    `GET /api/admin/clients?q= over ${USERS} clients`,
    (i) =>
      `/api/admin/clients?q=${encodeURIComponent(`shop of first${i % USERS}`)}`,
  );
  const worst = Math.max(users, clients);
  reportFigures('search', [
    {
      name: 'admin search p95, worst of users and clients',
      value: Number(worst.toFixed(1)),
      unit: 'ms',
      target: { op: '<=', value: 50 },
    },
  ]);
  console.log(
    `admin search p95 ${worst.toFixed(1)} ms: ${worst < 50 ? 'within' : 'OVER'} the 50 ms target`,
  );
} finally {
  await stopServer(server);
}
