import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { relocatedHome } from '../../src/server/db/embedded-postgres.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'src/server/main.ts');

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far on stdout and stderr. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolvePort(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** The folders `tempDataDir` made in this process and not removed yet. */
const madeDirs = new Set<string>();

/**
 * A new folder under the system's temporary one. Removed by `removeTempDataDirs`, which the
 * API tests run after each file (tests/support/remove-temp-dirs.ts), and when the process exits
 * (benches): every run used to leave its folders behind (/tmp had grown to 36 GB).
 */
export function tempDataDir(prefix = 'data'): string {
  const dir = mkdtempSync(join(tmpdir(), `console-${prefix}-`));
  if (madeDirs.size === 0) process.once('exit', removeTempDataDirs);
  madeDirs.add(dir);
  return dir;
}

/** Removes the folders `tempDataDir` made: only once the servers on them are stopped. */
export function removeTempDataDirs(): void {
  for (const dir of madeDirs) {
    // As root, the embedded cluster of a 0700 temporary folder lives under /var/lib/console-db.
    if (process.getuid?.() === 0 && existsSync(dir)) {
      rmSync(relocatedHome(realpathSync(dir)), {
        recursive: true,
        force: true,
      });
    }
    rmSync(dir, { recursive: true, force: true });
  }
  madeDirs.clear();
}

const TEMPLATE = 'console-template-';
/** A template no run has copied from for this long is one of a schema no run uses any more. */
export const STALE_TEMPLATE_MS = 60 * 60_000;

/**
 * The templates under `root` other than `current` (and builds of one a killed run left behind)
 * that no run copied from in the last hour. A template is touched at every copy
 * (migratedDataDir), so one that another vitest process (another branch: another schema) is
 * using is not among them; without this, every schema ever tested left its template in /tmp.
 */
export function staleTemplates(
  root: string,
  current: string,
  now = Date.now(),
): string[] {
  const stale: string[] = [];
  for (const name of readdirSync(root)) {
    if (!name.startsWith(TEMPLATE) || name === current) continue;
    try {
      if (now - statSync(join(root, name)).mtimeMs > STALE_TEMPLATE_MS) {
        stale.push(name);
      }
    } catch {
      // Pruned meanwhile by another process.
    }
  }
  return stale;
}

/**
 * Removes the stale templates, each renamed aside first: a run looking for one finds it whole
 * or not at all (and builds it again). An aside left by a killed prune is itself stale.
 */
export function pruneTemplates(
  root: string,
  current: string,
  now = Date.now(),
): void {
  for (const name of staleTemplates(root, current, now)) {
    const aside = join(root, `${name}.pruning-${process.pid}`);
    try {
      renameSync(join(root, name), aside);
    } catch {
      continue; // another process prunes it
    }
    rmSync(aside, { recursive: true, force: true });
  }
}

let pruned = false;

/** The template's name for this version of migrations/, a folder of the system's temporary one. */
export function templateName(): string {
  const migrations = join(ROOT, 'migrations');
  const hash = createHash('sha256');
  // functions/ too: a changed function file is a new schema.
  for (const name of readdirSync(migrations, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    hash.update(name).update(readFileSync(join(migrations, name)));
  }
  return `${TEMPLATE}${hash.digest('hex').slice(0, 12)}`;
}

/**
 * A DATA_DIR already initialised and migrated, copied from a template: a new directory costs
 * PGlite an initdb of several seconds, a copy reopens in about one. The template is built once
 * per version of migrations/ and shared by every test file (created aside, then renamed); the
 * first call of a test file (or bench) removes the templates of versions no longer used.
 */
export async function migratedDataDir(prefix = 'data'): Promise<string> {
  const name = templateName();
  const template = join(tmpdir(), name);
  if (!pruned) {
    pruned = true;
    pruneTemplates(tmpdir(), name);
  }
  if (!existsSync(template)) {
    const building = tempDataDir('template-building');
    await stopServer(await spawnServer({ DATA_DIR: building }));
    try {
      renameSync(building, template);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another file won the race
    }
  }
  const now = new Date();
  utimesSync(template, now, now); // in use: not stale
  const dir = tempDataDir(prefix);
  cpSync(template, dir, { recursive: true });
  return dir;
}

/**
 * Starts `node src/server/main.ts` (or another `entry`) as its own process with `env` (on top of a clean base: no
 * database URL, silent logs unless asked) without waiting for it to be ready.
 */
export async function launchServer(
  env: Record<string, string> = {},
  entry = MAIN,
): Promise<SpawnedServer> {
  const port = env.PORT ?? String(await freePort());
  const base: Record<string, string> = {};
  // Only what node itself needs: the server's own settings come from `env` alone.
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[key];
    if (value !== undefined) base[key] = value;
  }
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: {
      ...base,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_DIR: '.tmp/no-console',
      // The suites run on PGlite, whatever npm start's default; a test may pick another engine.
      DATABASE_ENGINE: 'pglite',
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
  }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
  };
}

/** Starts the server process and waits until GET /api/health answers 200. */
export async function spawnServer(
  env: Record<string, string> = {},
  timeoutMs = 45_000,
  entry = MAIN,
): Promise<SpawnedServer> {
  const server = await launchServer(env, entry);
  let exit: { code: number | null } | undefined;
  void server.exited.then((e) => (exit = e));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exit) {
      throw new Error(
        `server exited with ${exit.code} before it was ready:\n${server.output()}`,
      );
    }
    try {
      const health = await fetch(`${server.url}/api/health`);
      if (health.status === 200) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  server.child.kill('SIGKILL');
  throw new Error(
    `server not ready after ${timeoutMs} ms:\n${server.output()}`,
  );
}

/** Sends `signal` and waits for the process to exit. */
export async function stopServer(
  server: SpawnedServer,
  signal: NodeJS.Signals = 'SIGTERM',
) {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill(signal);
  }
  return server.exited;
}

export interface GroupServer {
  url: string;
  /** The server's pid, which is also its process group id. */
  pid: number;
  output(): string;
  /** SIGKILL of the whole process group, as `kill -9 -PGID` by an operator. */
  killGroup(): void;
  /** Ends the parent that never reaps: the zombie, if any, goes to init and is reaped. */
  dispose(): void;
}

/**
 * Starts the server as the leader of its own process group (as `npm start` in a terminal) whose
 * parent never reaps it: after a SIGKILL it stays a zombie, as under an init that reaps late or a
 * killed supervisor. `setsid` in a background job of a non-interactive shell does not fork, so the
 * pid printed is the server's; the shell then becomes `sleep`, which never waits for children.
 */
export async function spawnServerInOwnGroup(
  env: Record<string, string> = {},
  timeoutMs = 45_000,
): Promise<GroupServer> {
  const port = env.PORT ?? String(await freePort());
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[key];
    if (value !== undefined) base[key] = value;
  }
  const parent = spawn(
    'sh',
    [
      '-c',
      'setsid "$0" "$1" & echo "pid=$!"; exec sleep 600',
      process.execPath,
      MAIN,
    ],
    {
      cwd: ROOT,
      env: {
        ...base,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        WEB_DIR: '.tmp/no-console',
        DATABASE_ENGINE: 'pglite',
        ...env,
        PORT: port,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  parent.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  parent.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let pid: number | undefined;
  while (Date.now() < deadline) {
    pid ??= Number(/pid=(\d+)/.exec(output)?.[1]) || undefined;
    if (pid !== undefined && processState(pid) === 'Z') break;
    try {
      const health = await fetch(`${url}/api/health`);
      if (health.status === 200 && pid !== undefined) {
        const server = pid;
        return {
          url,
          pid: server,
          output: () => output,
          killGroup: () => process.kill(-server, 'SIGKILL'),
          dispose: () => {
            try {
              process.kill(-server, 'SIGKILL');
            } catch {
              // Already gone.
            }
            parent.kill('SIGKILL');
          },
        };
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (pid !== undefined) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  parent.kill('SIGKILL');
  throw new Error(`server not ready:\n${output}`);
}

/** The state letter of /proc/PID/stat (R, S, D, Z…), or undefined once the pid is gone. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}
