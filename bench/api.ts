/**
 * `npm run bench:api`: the HTTP floor. Requests per second of a bare Fastify (bench/bare-fastify.ts:
 * same Node, same fastify package, `GET /api/health` → `{status:'ok'}`, its own process), of the
 * product's `GET /api/health` and of its authenticated `GET /api/users/me` (HTTP Basic, a cached
 * credential), measured side by side in one run: rounds alternate the three, each figure is the
 * median of its rounds. Targets (issue 34, target 3): health/bare ≥ 0.7 and me/bare ≥ 0.6
 * (issue 22's were 0.5 and 0.35); exits 1 when one is missed. me/health is printed too.
 *
 * The product runs with its default configuration (request logging on at `info`, its log going
 * to .tmp/bench/api-server.log). Uses wrk when installed (far cheaper on 2 cores), autocannon
 * otherwise. BENCH_SECONDS (10) per run, BENCH_ROUNDS (3), BENCH_CONNECTIONS (32), DATABASE_URL,
 * LOG_LEVEL; BENCH_PROFILE=1 writes a CPU profile of the product to .tmp/bench/profile/.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { tempDataDir } from '../tests/support/spawn-server.ts';
import { median, reportFigures, type Figure } from './report.ts';
import {
  BENCH_ADMIN,
  call,
  hasWrk,
  registerBenchUser,
  seconds,
} from './server.ts';
import { ROOT, spawnLogged } from './spawn.ts';

const DURATION = seconds('BENCH_SECONDS', 10);
const ROUNDS = seconds('BENCH_ROUNDS', 3);
const CONNECTIONS = seconds('BENCH_CONNECTIONS', 32);
const PROFILE = process.env.BENCH_PROFILE === '1';
const OUT = resolve(ROOT, '.tmp/bench');

interface Measure {
  rps: number;
  requests: number;
  errors: number;
  /** CPU the server process spent per request, in µs (Linux only). */
  cpuUs?: number;
}

/** CPU time of a process so far, in µs, from /proc (Linux); undefined elsewhere. */
function cpuTimeUs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    // utime and stime (fields 14 and 15 of stat), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

function withWrk(
  url: string,
  headers: Record<string, string>,
  duration: number,
): Measure {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${duration}s`];
  for (const [name, value] of Object.entries(headers))
    args.push('-H', `${name}: ${value}`);
  const run = spawnSync('wrk', [...args, url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(run.stdout)?.[1] ?? 0);
  const non2xx = Number(
    /Non-2xx or 3xx responses:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0,
  );
  const socketErrors = /Socket errors:.*/.exec(run.stdout)?.[0];
  if (socketErrors) console.log(`  wrk: ${socketErrors}`);
  return { rps, requests, errors: non2xx + (socketErrors ? 1 : 0) };
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
    requests: result.requests.total,
    errors: result.non2xx + result.errors,
  };
}

/**
 * Loads `url` for `duration` seconds; with the server's `pid`, also the CPU it spent per request:
 * on a machine shared with other work, req/s varies with what else runs, CPU per request far less.
 */
async function load(
  url: string,
  headers: Record<string, string>,
  duration: number,
  pid?: number,
): Promise<Measure> {
  const before = pid === undefined ? undefined : cpuTimeUs(pid);
  const measure = hasWrk()
    ? withWrk(url, headers, duration)
    : await withAutocannon(url, headers, duration);
  const after = pid === undefined ? undefined : cpuTimeUs(pid);
  if (before !== undefined && after !== undefined && measure.requests > 0) {
    measure.cpuUs = (after - before) / measure.requests;
  }
  return measure;
}

const databaseUrl = process.env.DATABASE_URL;
// Removed once the product has stopped (the bench left one behind per run before).
const dataDir = databaseUrl ? undefined : tempDataDir('bench');
const product = await spawnLogged(
  'src/server/main.ts',
  {
    // The default configuration: request logging on (LOG_LEVEL unset means info).
    ...(process.env.LOG_LEVEL ? { LOG_LEVEL: process.env.LOG_LEVEL } : {}),
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    WEB_DIR: '.tmp/no-console',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir! }),
  },
  {
    logFile: resolve(OUT, 'api-server.log'),
    nodeArgs: PROFILE
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${resolve(OUT, 'profile')}`,
          `--cpu-prof-name=api-${randomBytes(3).toString('hex')}.cpuprofile`,
        ]
      : [],
  },
);
const bare = await spawnLogged(
  'bench/bare-fastify.ts',
  {},
  { logFile: resolve(OUT, 'bare-fastify.log') },
);
let met = false;
try {
  const auth = await registerBenchUser(product.url);
  const me = await call(product.url, 'GET', '/api/users/me', undefined, auth);
  if (me.status !== 200)
    throw new Error(`GET /api/users/me answered ${me.status}`);

  const targets = [
    {
      name: 'bare Fastify  GET /api/health',
      url: `${bare.url}/api/health`,
      pid: bare.pid,
    },
    {
      name: 'product       GET /api/health',
      url: `${product.url}/api/health`,
      pid: product.pid,
    },
    {
      name: 'product       GET /api/users/me',
      url: `${product.url}/api/users/me`,
      headers: { authorization: auth },
      pid: product.pid,
    },
  ];
  const tool = hasWrk()
    ? `wrk (1 thread, ${CONNECTIONS} connections)`
    : `autocannon (${CONNECTIONS} connections)`;
  console.log(
    `bench:api — ${databaseUrl ? `PostgreSQL (${new URL(databaseUrl).host})` : 'embedded PostgreSQL'}, ` +
      `LOG_LEVEL ${process.env.LOG_LEVEL ?? 'info (default)'}, ${tool}, ` +
      `${ROUNDS} rounds of ${DURATION} s per target, alternating`,
  );
  // A short warm-up of each first: JIT, credential cache, connection pools.
  for (const target of targets) await load(target.url, target.headers ?? {}, 2);
  const runs = targets.map(() => [] as Measure[]);
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with another target, so none always runs first or last.
    for (let i = 0; i < targets.length; i++) {
      const at = (i + round) % targets.length;
      const target = targets[at]!;
      runs[at]!.push(
        await load(target.url, target.headers ?? {}, DURATION, target.pid),
      );
    }
  }
  const [bareRps, healthRps, meRps] = runs.map((measures) =>
    median(measures.map((m) => m.rps)),
  ) as [number, number, number];
  const cpu = runs.map((measures) =>
    measures.every((m) => m.cpuUs !== undefined)
      ? median(measures.map((m) => m.cpuUs!))
      : undefined,
  );
  targets.forEach((target, i) => {
    const measures = runs[i]!;
    const errors = measures.reduce((sum, m) => sum + m.errors, 0);
    console.log(
      `${target.name}  ${median(measures.map((m) => m.rps))
        .toFixed(0)
        .padStart(7)} req/s median` +
        `  (runs ${measures.map((m) => m.rps.toFixed(0)).join(', ')}; errors ${errors})` +
        (cpu[i] === undefined
          ? ''
          : `; server CPU ${cpu[i].toFixed(0)} µs/request`),
    );
  });
  const errors = runs.flat().reduce((sum, m) => sum + m.errors, 0);
  if (errors > 0) {
    console.log(
      'warning: some answers were not 2xx; the figures are not comparable',
    );
  }
  const figures: Figure[] = [
    { name: 'bare Fastify GET /api/health', value: bareRps, unit: 'req/s' },
    { name: 'GET /api/health', value: healthRps, unit: 'req/s' },
    { name: 'GET /api/users/me (Basic)', value: meRps, unit: 'req/s' },
    {
      name: 'health / bare Fastify',
      value: healthRps / bareRps,
      unit: '×',
      target: { op: '>=', value: 0.7 },
    },
    {
      name: 'users/me / bare Fastify',
      value: meRps / bareRps,
      unit: '×',
      target: { op: '>=', value: 0.6 },
    },
    { name: 'users/me / health', value: meRps / healthRps, unit: '×' },
    {
      name: 'non-2xx answers',
      value: errors,
      unit: '',
      target: { op: '<=', value: 0 },
    },
    // The same floor counted in server CPU per request: steadier on a shared machine.
    ...(cpu.every((c) => c !== undefined)
      ? [
          {
            name: 'server CPU / request, bare Fastify',
            value: cpu[0]!,
            unit: 'µs',
          },
          {
            name: 'server CPU / request, health',
            value: cpu[1]!,
            unit: 'µs',
          },
          {
            name: 'server CPU / request, users/me',
            value: cpu[2]!,
            unit: 'µs',
          },
          { name: 'CPU bare / health', value: cpu[0]! / cpu[1]!, unit: '×' },
          {
            name: 'CPU health / users/me',
            value: cpu[1]! / cpu[2]!,
            unit: '×',
          },
        ]
      : []),
  ];
  for (const figure of figures.slice(3, 6)) {
    const target = figure.target;
    const verdict = target
      ? `  (target ≥ ${target.value}: ${figure.value >= target.value ? 'met' : 'NOT met'})`
      : '';
    console.log(
      `ratio ${figure.name.padEnd(24)} ${figure.value.toFixed(2)}${verdict}`,
    );
  }
  met = reportFigures('api', figures);
} finally {
  await Promise.all([bare.stop(), product.stop()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
if (PROFILE) console.log(`CPU profile in ${resolve(OUT, 'profile')}`);
process.exit(met ? 0 : 1);
