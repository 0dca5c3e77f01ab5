import { randomBytes } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'server.lock';

/** Who holds the lock. `boot` and `start` tell a live holder from a reused pid (Linux /proc). */
export interface LockHolder {
  pid: number;
  boot?: string;
  start?: string;
}

/**
 * PGlite is single-process: a second process on the same directory would silently lose its
 * writes. The server therefore owns DATA_DIR through a lock file naming its process, and
 * refuses to start while that process lives. A lock left by a killed process is taken over.
 * Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, LOCK_FILE);
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
    if (holder && isLive(holder)) {
      throw new Error(
        `DATA_DIR ${dataDir} is in use by another server (pid ${holder.pid}). ` +
          'The embedded database is single-process: stop that server or choose another DATA_DIR.',
      );
    }
    removeIfUnchanged(lockPath, text);
  }
  throw new Error(
    `Could not lock DATA_DIR ${dataDir}: ${lockPath} keeps changing`,
  );
}

/** Creates the lock with its whole content at once (link of a complete file), or false if it exists. */
function createExclusive(lockPath: string, content: string): boolean {
  const staged = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(staged, content);
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

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
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
  const start = startTimeOf(holder.pid);
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
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; fields after it are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}
