import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join, resolve } from 'node:path';

export const LOCK_FILE = 'server.lock';

/** Who holds the lock. `boot` and `start` tell a live holder from a reused pid (Linux /proc). */
export interface LockHolder {
  pid: number;
  boot?: string;
  start?: string;
}

/**
 * PGlite is single-process: a second process on the same directory would silently lose its
 * writes. The server therefore owns DATA_DIR and refuses to start while another server holds it.
 *
 * On Linux the ownership is a kernel lock: a listening abstract unix socket named after the
 * directory. Binding it is exclusive, and the kernel releases it when the process's files are
 * closed on exit, before the dead process lingers as a zombie waiting to be reaped, so a restart
 * right after `kill -9` is never refused. The lock file names the holder for the message, and
 * stays the only guard elsewhere (a killed holder's file is taken over). Returns the release
 * function.
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    // Said as what it means, not as the raw system error.
    throw new Error(
      `DATA_DIR ${dataDir} cannot be created: ${(error as Error).message}. Ways out: set ` +
        'DATA_DIR to a folder this user can create or write; or set DATABASE_URL=postgres://… ' +
        'to use a PostgreSQL server',
    );
  }
  const unsafe = unsafeForRoot(dataDir);
  if (unsafe) throw new Error(unsafe);
  const lockPath = join(dataDir, LOCK_FILE);
  const kernelLock =
    process.platform === 'linux'
      ? await holdKernelLock(dataDir, lockPath)
      : undefined;
  try {
    const releaseFile = await lockFile(dataDir, lockPath);
    return () => {
      releaseFile();
      kernelLock?.close();
    };
  } catch (error) {
    kernelLock?.close();
    throw error;
  }
}

/**
 * As root, why DATA_DIR is not safe to use, or undefined when it is. Root writes the lock, the
 * database's log and its password there: another user who can write DATA_DIR (its owner, one who
 * created it before the server did) or any folder above it (to swap DATA_DIR for their own)
 * could plant links that root would write through, or read what it keeps. DATA_DIR must be
 * root's and writable by root alone, and every folder above it root's and writable by root alone
 * or sticky (as /tmp is: there no one else can rename root's folder).
 */
export function unsafeForRoot(dataDir: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const real = realpathSync(dataDir);
  const ways =
    'Ways out: remove it and let the server create it, or `chown root: ` it and `chmod go-w` ' +
    "it; or set DATA_DIR to a folder of root's; or run `npm start` as a normal (not root) user; " +
    'or set DATABASE_URL=postgres://… to use a PostgreSQL server';
  const stat = lstatSync(real);
  if (stat.uid !== 0) {
    return (
      `DATA_DIR ${real} belongs to ${userName(stat.uid)}, not root: as root the server uses only ` +
      `a DATA_DIR that root owns, since its owner could replace or link what root writes there. ${ways}`
    );
  }
  if ((stat.mode & 0o022) !== 0) {
    return (
      `DATA_DIR ${real} can be written by other users (mode ${octal(stat.mode)}): as root the ` +
      `server uses only a DATA_DIR that root alone can write. ${ways}`
    );
  }
  // The folders above it, on the way as given (a link on it could be swapped by whoever may
  // write the folder holding that link) and on the real way.
  const above = new Set([...ancestors(resolve(dataDir)), ...ancestors(real)]);
  for (const parent of above) {
    const stat = lstatSync(parent);
    if (stat.isSymbolicLink()) continue; // its own folder is on the list
    const writable = (stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0;
    if (stat.uid !== 0 || writable) {
      return (
        `${parent}, a folder above DATA_DIR ${real}, can be changed by ` +
        `${stat.uid !== 0 ? userName(stat.uid) : 'other users'} (mode ${octal(stat.mode)}): ` +
        `as root the server uses only a DATA_DIR no other user can swap for a folder of theirs. ${ways}`
      );
    }
  }
  return undefined;
}

/** The folders above `path`, nearest first, up to `/`. */
function ancestors(path: string): string[] {
  const found: string[] = [];
  for (let parent = dirname(path); ; parent = dirname(parent)) {
    found.push(parent);
    if (parent === dirname(parent)) return found;
  }
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

function userName(uid: number): string {
  const found = spawnSync('getent', ['passwd', String(uid)], {
    encoding: 'utf8',
  });
  const name = found.status === 0 ? found.stdout.split(':')[0] : undefined;
  return name ? `the user ${name} (uid ${uid})` : `uid ${uid}`;
}

function inUse(dataDir: string, pid: number | string): Error {
  return new Error(
    `DATA_DIR ${dataDir} is in use by another server (pid ${pid}). ` +
      'The embedded database is single-process: stop that server or choose another DATA_DIR.',
  );
}

/** The abstract socket name of a directory: the same for every path that leads to it. */
export function kernelLockName(dataDir: string): string {
  const digest = createHash('sha256')
    .update(realpathSync(dataDir))
    .digest('hex');
  return `\0messaging-console-data-dir-${digest}`;
}

/** How long a start waits for a holder that is exiting, or that has not written its file yet. */
const HOLDER_GRACE_MS = 2_000;

async function holdKernelLock(
  dataDir: string,
  lockPath: string,
): Promise<Server> {
  const name = kernelLockName(dataDir);
  const deadline = Date.now() + HOLDER_GRACE_MS;
  for (;;) {
    try {
      return await listenExclusive(name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
    const text = readText(lockPath);
    const holder = text === undefined ? undefined : parseHolder(text);
    // A live holder is refused at once; one being torn down by the kernel, or one that has
    // just bound the socket and not yet written its file, gets a moment.
    if ((holder && isLive(holder)) || Date.now() >= deadline) {
      throw inUse(dataDir, holder?.pid ?? 'unknown');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function listenExclusive(name: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen({ path: name, exclusive: true }, () => {
      server.off('error', reject);
      // The lock must not keep the process alive on its own.
      server.unref();
      resolve(server);
    });
  });
}

/**
 * The lock file naming this process. A lock naming a live process refuses the start; one left
 * by a dead process (or a zombie) is taken over.
 */
async function lockFile(
  dataDir: string,
  lockPath: string,
): Promise<() => void> {
  const mine = JSON.stringify(identify(process.pid));
  const release = () => {
    // Only ever remove our own lock, never one a later server took over.
    if (readText(lockPath) === mine) rmSync(lockPath, { force: true });
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(lockPath, mine)) return release;
    const text = readText(lockPath);
    if (text === undefined) continue; // released meanwhile: try again
    const holder = parseHolder(text);
    if (holder && isLive(holder)) throw inUse(dataDir, holder.pid);
    removeIfUnchanged(lockPath, text);
  }
  throw new Error(
    `Could not lock DATA_DIR ${dataDir}: ${lockPath} keeps changing`,
  );
}

/** Creates the lock with its whole content at once (link of a complete file), or false if it exists. */
function createExclusive(lockPath: string, content: string): boolean {
  const staged = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(staged, content, { flag: 'wx' });
  try {
    linkSync(staged, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // Filesystems without hard links: an exclusive create is nearly as good.
    try {
      writeFileSync(lockPath, content, { flag: 'wx' });
      return true;
    } catch (fallback) {
      if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fallback;
    }
  } finally {
    rmSync(staged, { force: true });
  }
}

/**
 * Removes a stale lock, unless another server replaced it since we read it: the lock is moved
 * aside atomically, checked, and put back if it is not the one we judged stale.
 */
function removeIfUnchanged(lockPath: string, staleText: string): void {
  const aside = `${lockPath}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readText(aside) !== staleText) {
      try {
        linkSync(aside, lockPath);
      } catch {
        // Yet another server holds it now; the next attempt reads who.
      }
    }
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * The lock's text, or undefined when there is none. A link or anything but a plain file is not
 * followed: it reads as empty, a lock of no one, and is moved aside like a stale one.
 */
function readText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'ENXIO') return '';
    throw error;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : '';
  } finally {
    closeSync(fd);
  }
}

/** Reads a lock file: JSON written by this module, or a bare pid. */
export function parseHolder(text: string): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'number') return { pid: value };
    if (typeof value === 'object' && value !== null && 'pid' in value) {
      const { pid, boot, start } = value as Record<string, unknown>;
      if (typeof pid !== 'number') return undefined;
      return {
        pid,
        ...(typeof boot === 'string' ? { boot } : {}),
        ...(typeof start === 'string' ? { start } : {}),
      };
    }
  } catch {
    // Torn or foreign content: not a live holder.
  }
  return undefined;
}

/** The identity of a process as recorded in the lock. */
export function identify(pid: number): LockHolder {
  const boot = bootId();
  const start = startTimeOf(pid);
  return { pid, ...(boot ? { boot } : {}), ...(start ? { start } : {}) };
}

/** True when the process that wrote the lock is still running (not a reused pid). */
export function isLive(holder: LockHolder): boolean {
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const boot = bootId();
  if (holder.boot && boot && holder.boot !== boot) return false;
  const stat = procStat(holder.pid);
  // A killed process is a zombie (Z, or X while being reaped) until its parent reaps it, and
  // flagged exiting from the kill on: the kernel lock it held is already released.
  if (stat && (/^[ZXx]$/.test(stat.state) || stat.exiting)) return false;
  const start = stat?.start;
  if (holder.start && start && holder.start !== start) return false;
  // Our own pid without a start time to compare: a previous run in a recycled container.
  if (holder.pid === process.pid && !holder.start) return false;
  return true;
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Start time of a process in clock ticks since boot (field 22 of /proc/PID/stat). */
function startTimeOf(pid: number): string | undefined {
  return procStat(pid)?.start;
}

/** The kernel's PF_EXITING flag (field 9): set as soon as the process starts dying. */
const PF_EXITING = 0x4;

/** State (field 3), exiting flag and start time of a process from /proc/PID/stat. */
function procStat(
  pid: number,
): { state: string; exiting: boolean; start: string | undefined } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; fields after it are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      state: fields[0] ?? '',
      exiting: (Number(fields[6]) & PF_EXITING) !== 0,
      start: fields[19],
    };
  } catch {
    return undefined;
  }
}
