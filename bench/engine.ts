/**
 * `npm run bench:engine`: the embedded engines side by side (issue 22 item 5), PGlite and the
 * PostgreSQL that the server runs itself (DATABASE_ENGINE=postgres), alternating over
 * BENCH_ROUNDS (3) rounds on fresh DATA_DIRs. For each start: the time to GET /api/ready 200 (a new
 * DATA_DIR, then a restart on it); the memory of the server's whole process tree (node and every
 * postgres process), sampled every 50 ms while starting (peak) and after BENCH_SETTLE seconds (10)
 * idle, as the sum of resident sets (RSS, counting PostgreSQL's shared buffers once per process)
 * and of proportional sets (PSS, shared pages split among the processes); node's own VmHWM; and
 * the CPU of the idle tree over BENCH_IDLE seconds (30). Prints medians and PostgreSQL/PGlite
 * ratios, and writes every run to .tmp/bench-engine.json.
 *
 * Targets, on the default engine of `npm start` (PostgreSQL): idle ≤ 200 MB (issue 34; 300 MB
 * in issue 22 item 5) and peak while starting ≤ 500 MB, both as the RSS sum (the stricter figure:
 * shared buffers and the binaries' pages count once per process that touched them; the PSS sum
 * splits them and is printed beside it), and idle CPU ≤ 0.5 % of a core.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { resolve } from 'node:path';
import {
  launchServer,
  stopServer,
  tempDataDir,
  type SpawnedServer,
} from '../tests/support/spawn-server.ts';
import { median, reportFigures, type Figure } from './report.ts';
import { BENCH_ADMIN, seconds } from './server.ts';

const ROUNDS = seconds('BENCH_ROUNDS', 3);
const SETTLE = seconds('BENCH_SETTLE', 10);
const IDLE = seconds('BENCH_IDLE', 30);
const ENGINES = ['pglite', 'postgres'] as const;
type Engine = (typeof ENGINES)[number];
const TICK = 100; // USER_HZ on Linux
/** npm start's NODE_COMPILE_CACHE (package.json). */
const COMPILE_CACHE = resolve(
  import.meta.dirname,
  '../node_modules/.cache/node-compile-cache',
);

/** `pid` and every process below it. */
function tree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const all = [pid];
  for (let i = 0; i < all.length; i++)
    all.push(...(parents.get(all[i]!) ?? []));
  return all;
}

function kb(text: string, field: string): number {
  return Number(
    new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0,
  );
}

/** Resident and proportional set sizes of the tree, in MB; node's own RSS and VmHWM. */
function memory(pid: number): {
  rss: number;
  pss: number;
  nodeRss: number;
  nodeHwm: number;
} {
  let rss = 0;
  let pss = 0;
  let nodeRss = 0;
  let nodeHwm = 0;
  for (const p of tree(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      rss += kb(status, 'VmRSS');
      if (p === pid) {
        nodeRss = kb(status, 'VmRSS');
        nodeHwm = kb(status, 'VmHWM');
      }
      pss += kb(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'), 'Pss');
    } catch {
      // Gone meanwhile.
    }
  }
  return {
    rss: rss / 1024,
    pss: pss / 1024,
    nodeRss: nodeRss / 1024,
    nodeHwm: nodeHwm / 1024,
  };
}

/** CPU seconds used by the tree so far, its reaped children included. */
function cpu(pid: number): number {
  let ticks = 0;
  for (const p of tree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, cutime, cstime: fields 14-17, here indexes 11-14.
      for (const i of [11, 12, 13, 14]) ticks += Number(fields[i]);
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks / TICK;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a server on `dir`; returns it once /api/ready answers 200, with the peak while starting. */
async function start(
  engine: Engine,
  dir: string,
): Promise<{
  server: SpawnedServer;
  ms: number;
  peakRss: number;
  peakPss: number;
}> {
  const began = performance.now();
  const server = await launchServer({
    DATA_DIR: dir,
    DATABASE_ENGINE: engine,
    // As npm start runs it (package.json): the first start fills the cache, the restart's
    // modules come from it, and Node's type stripper (17 MB resident) is never loaded.
    NODE_COMPILE_CACHE: COMPILE_CACHE,
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
  });
  const pid = server.child.pid!;
  let peakRss = 0;
  let peakPss = 0;
  for (;;) {
    const now = memory(pid);
    peakRss = Math.max(peakRss, now.rss);
    peakPss = Math.max(peakPss, now.pss);
    if (server.child.exitCode !== null) {
      throw new Error(`${engine} server exited:\n${server.output()}`);
    }
    try {
      const ready = await fetch(`${server.url}/api/ready`);
      if (ready.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - began > 120_000) {
      throw new Error(`${engine} not ready in 120 s`);
    }
    await sleep(50);
  }
  return { server, ms: performance.now() - began, peakRss, peakPss };
}

interface Run {
  engine: Engine;
  firstStartMs: number;
  restartMs: number;
  peakRss: number;
  peakPss: number;
  nodeHwm: number;
  idleRss: number;
  idleNodeRss: number;
  idlePss: number;
  idleCpuPercent: number;
}

async function measure(engine: Engine): Promise<Run> {
  const dir = tempDataDir(`engine-${engine}`);
  const first = await start(engine, dir);
  await stopServer(first.server);
  const { server, ms, peakRss, peakPss } = await start(engine, dir);
  try {
    const pid = server.child.pid!;
    await sleep(SETTLE * 1000);
    const idle = memory(pid);
    const before = cpu(pid);
    await sleep(IDLE * 1000);
    const used = cpu(pid) - before;
    return {
      engine,
      firstStartMs: first.ms,
      restartMs: ms,
      peakRss: Math.max(first.peakRss, peakRss),
      peakPss: Math.max(first.peakPss, peakPss),
      nodeHwm: memory(pid).nodeHwm,
      idleRss: idle.rss,
      idleNodeRss: idle.nodeRss,
      idlePss: idle.pss,
      idleCpuPercent: (used / IDLE) * 100,
    };
  } finally {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs: Run[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which engine goes first: the machine is shared.
  const order = round % 2 === 0 ? ENGINES : [...ENGINES].reverse();
  for (const engine of order) {
    const run = await measure(engine);
    runs.push(run);
    console.log(
      `round ${round + 1} ${engine.padEnd(8)} start ${run.firstStartMs.toFixed(0)} ms (restart ${run.restartMs.toFixed(0)}), ` +
        `peak RSS ${run.peakRss.toFixed(0)} MB (PSS ${run.peakPss.toFixed(0)}, node HWM ${run.nodeHwm.toFixed(0)}), ` +
        `idle RSS ${run.idleRss.toFixed(0)} MB (node ${run.idleNodeRss.toFixed(0)}, PSS ${run.idlePss.toFixed(0)}), idle CPU ${run.idleCpuPercent.toFixed(2)} %`,
    );
  }
}

/** The targets of the default engine's figures (PostgreSQL). */
const TARGETS: Partial<Record<keyof Run, number>> = {
  peakRss: 500,
  idleRss: 200,
  idleCpuPercent: 0.5,
};

const fields = [
  ['firstStartMs', 'start, new DATA_DIR (ms)'],
  ['restartMs', 'start, existing DATA_DIR (ms)'],
  ['peakRss', 'peak RSS sum while starting (MB)'],
  ['peakPss', 'peak PSS sum while starting (MB)'],
  ['nodeHwm', 'node VmHWM (MB)'],
  ['idleRss', 'idle RSS sum (MB)'],
  ['idleNodeRss', 'idle RSS of node alone (MB)'],
  ['idlePss', 'idle PSS sum (MB)'],
  ['idleCpuPercent', `idle CPU over ${IDLE} s (% of a core)`],
] as const;
console.log(
  `\nmedians of ${ROUNDS} rounds     PGlite   PostgreSQL   PostgreSQL/PGlite`,
);
const figures: Figure[] = [];
for (const [field, label] of fields) {
  const [lite, postgres] = ENGINES.map((engine) =>
    median(runs.filter((r) => r.engine === engine).map((r) => r[field])),
  ) as [number, number];
  const unit = label.endsWith('(MB)')
    ? 'MB'
    : label.endsWith('(ms)')
      ? 'ms'
      : '%';
  const most = TARGETS[field];
  figures.push(
    { name: `${label}, PGlite`, value: Number(lite.toFixed(1)), unit },
    {
      name: `${label}, PostgreSQL`,
      value: Number(postgres.toFixed(1)),
      unit,
      ...(most === undefined ? {} : { target: { op: '<=', value: most } }),
    },
  );
  console.log(
    `${label.padEnd(40)} ${lite.toFixed(1).padStart(8)} ${postgres.toFixed(1).padStart(10)} ${(postgres / lite).toFixed(2).padStart(10)}`,
  );
}
reportFigures('engine', figures);
mkdirSync('.tmp', { recursive: true });
writeFileSync('.tmp/bench-engine.json', JSON.stringify(runs, null, 2));
