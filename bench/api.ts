/**
 * `npm run bench:api`: requests per second of GET /api/health and of an authenticated
 * GET /api/users/me, measured in one run against one server, and their ratio (target ≥ 0.5:
 * the credential cache must make Basic auth cheap). Uses wrk when installed (far cheaper on
 * 2 cores), autocannon otherwise. BENCH_SECONDS (10), BENCH_CONNECTIONS (32), DATABASE_URL.
 */
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import {
  call,
  hasWrk,
  registerBenchUser,
  seconds,
  startBenchServer,
} from './server.ts';

const DURATION = seconds('BENCH_SECONDS', 10);
const CONNECTIONS = seconds('BENCH_CONNECTIONS', 32);
const TARGET_RATIO = 0.5;

interface Measure {
  rps: number;
  errors: number;
}

function withWrk(
  url: string,
  headers: Record<string, string>,
  duration: number,
): Measure {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${duration}s`, '--latency'];
  for (const [name, value] of Object.entries(headers))
    args.push('-H', `${name}: ${value}`);
  const run = spawnSync('wrk', [...args, url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1] ?? 0);
  const non2xx = Number(
    /Non-2xx or 3xx responses:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0,
  );
  const socketErrors = /Socket errors:.*/.exec(run.stdout)?.[0];
  if (socketErrors) console.log(`  wrk: ${socketErrors}`);
  return { rps, errors: non2xx };
}

async function withAutocannon(
  url: string,
  headers: Record<string, string>,
  duration: number,
): Promise<Measure> {
  const result = await autocannon({
    url,
    headers,
    connections: CONNECTIONS,
    duration,
  });
  return {
    rps: result.requests.average,
    errors: result.non2xx + result.errors,
  };
}

async function measure(
  url: string,
  headers: Record<string, string> = {},
): Promise<Measure> {
  // A short warm-up first: JIT, credential cache, connection pools.
  if (hasWrk()) {
    withWrk(url, headers, 2);
    return withWrk(url, headers, DURATION);
  }
  await withAutocannon(url, headers, 2);
  return withAutocannon(url, headers, DURATION);
}

const server = await startBenchServer();
try {
  const auth = await registerBenchUser(server.url);
  const me = await call(server.url, 'GET', '/api/users/me', undefined, auth);
  if (me.status !== 200)
    throw new Error(`GET /api/users/me answered ${me.status}`);

  const tool = hasWrk()
    ? `wrk (1 thread, ${CONNECTIONS} connections)`
    : `autocannon (${CONNECTIONS} connections)`;
  console.log(
    `bench:api — ${server.database}, ${tool}, ${DURATION} s per route`,
  );
  const health = await measure(`${server.url}/api/health`);
  const authed = await measure(`${server.url}/api/users/me`, {
    authorization: auth,
  });
  const ratio = authed.rps / health.rps;
  console.log(
    `GET /api/health           ${health.rps.toFixed(0).padStart(8)} req/s  (errors ${health.errors})`,
  );
  console.log(
    `GET /api/users/me (Basic) ${authed.rps.toFixed(0).padStart(8)} req/s  (errors ${authed.errors})`,
  );
  console.log(
    `ratio authenticated/health ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`,
  );
  if (health.errors > 0 || authed.errors > 0) {
    console.log(
      'warning: some answers were not 2xx; the figures are not comparable',
    );
  }
} finally {
  await server.stop();
}
