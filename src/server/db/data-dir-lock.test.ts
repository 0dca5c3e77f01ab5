import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  identify,
  isLive,
  kernelLockName,
  LOCK_FILE,
  lockDataDir,
  parseHolder,
  unsafeForRoot,
} from './data-dir-lock.ts';

const children: ChildProcess[] = [];
/** Lock holders started behind `sleep`: not our children, so killed by pid. */
const holderPids: number[] = [];
afterEach(() => {
  for (const pid of holderPids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** The folders `tempDir` made: removed after the file (each run used to leave 18 in /tmp). */
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0))
    rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lock-test-'));
  made.push(dir);
  return dir;
}

/** A live process other than this one, holding nothing. */
function otherProcess(): ChildProcess & { pid: number } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)']);
  children.push(child);
  if (child.pid === undefined) throw new Error('no pid');
  return child as ChildProcess & { pid: number };
}

/** A pid that no process has now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid ?? 999_999;
}

const LOCK_MODULE = new URL('./data-dir-lock.ts', import.meta.url).pathname;
const HOLD_LOCK = `const { lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)});
await lockDataDir(process.argv[1]);
console.log('locked');
setInterval(() => {}, 1e6);`;

/**
 * Another process holding the lock on `dir`, whose parent (`sleep`) never reaps it: once killed
 * it stays a zombie, still answering kill(pid, 0), as a server killed under a slow init.
 */
async function lockHolderThatBecomesZombie(dir: string) {
  const parent = spawn(
    'sh',
    [
      '-c',
      '"$0" --input-type=module -e "$1" "$2" & echo "pid=$!"; exec sleep 60',
      process.execPath,
      HOLD_LOCK,
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(parent);
  let output = '';
  parent.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  await expect
    .poll(() => output, { timeout: 10_000, interval: 20 })
    .toContain('locked');
  const pid = Number(/pid=(\d+)/.exec(output)?.[1]);
  holderPids.push(pid);
  return {
    pid,
    async killToZombie() {
      process.kill(pid, 'SIGKILL');
      await expect
        .poll(() => stateOf(pid), { timeout: 5_000, interval: 10 })
        .toBe('Z');
    },
  };
}

function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

describe('lockDataDir', () => {
  it('creates the directory and a lock naming this process; release removes it', async () => {
    const dir = join(tempDir(), 'nested', 'data');
    const release = await lockDataDir(dir);
    const lock = join(dir, LOCK_FILE);
    const holder = parseHolder(readFileSync(lock, 'utf8'));
    expect(holder?.pid).toBe(process.pid);
    release();
    expect(existsSync(lock)).toBe(false);
    // No staging files are left behind.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses while another live process holds the lock, naming its pid', async () => {
    const dir = tempDir();
    const other = otherProcess();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(identify(other.pid)));
    await expect(lockDataDir(dir)).rejects.toThrow(
      new RegExp(`in use by another server \\(pid ${other.pid}\\)`),
    );
    expect(parseHolder(readFileSync(join(dir, LOCK_FILE), 'utf8'))?.pid).toBe(
      other.pid,
    );
  });

  it('also refuses for a lock holding only a live pid (older format)', async () => {
    const dir = tempDir();
    const other = otherProcess();
    writeFileSync(join(dir, LOCK_FILE), String(other.pid));
    await expect(lockDataDir(dir)).rejects.toThrow(/in use by another server/);
  });

  it('takes over a lock left by a dead process', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: await deadPid() }),
    );
    const release = await lockDataDir(dir);
    expect(parseHolder(readFileSync(join(dir, LOCK_FILE), 'utf8'))?.pid).toBe(
      process.pid,
    );
    release();
  });

  it('takes over a lock whose pid now belongs to another process (pid reuse)', async () => {
    const dir = tempDir();
    const other = otherProcess();
    const reused = { ...identify(other.pid), start: '1' };
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(reused));
    expect(isLive(reused)).toBe(process.platform !== 'linux');
    if (process.platform === 'linux') (await lockDataDir(dir))();
  });

  it('does not follow a lock planted as a link: the link is replaced, its target untouched', async () => {
    const dir = tempDir();
    const target = join(tempDir(), 'target');
    writeFileSync(target, String(process.ppid));
    symlinkSync(target, join(dir, LOCK_FILE));
    const release = await lockDataDir(dir);
    expect(lstatSync(join(dir, LOCK_FILE)).isSymbolicLink()).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe(String(process.ppid));
    release();
  });

  it.skipIf(process.getuid?.() !== 0)(
    'as root refuses a DATA_DIR others can write, and writes nothing there',
    async () => {
      const dir = tempDir();
      expect(unsafeForRoot(dir)).toBeUndefined();
      chmodSync(dir, 0o777);
      expect(unsafeForRoot(dir)).toMatch(/can be written by other users/);
      await expect(lockDataDir(dir)).rejects.toThrow(/Ways out/);
      expect(readdirSync(dir)).toEqual([]);
      // A folder above it that others can write (and not sticky): DATA_DIR could be swapped.
      const inside = join(dir, 'data');
      expect(unsafeForRoot(mkdtempSync(`${inside}-`))).toMatch(
        /a folder above DATA_DIR/,
      );
      // A link to a good DATA_DIR, inside a folder others can write: the link could be swapped.
      const good = tempDir();
      const link = join(dir, 'link');
      symlinkSync(good, link);
      expect(unsafeForRoot(good)).toBeUndefined();
      expect(unsafeForRoot(link)).toMatch(/a folder above DATA_DIR/);
    },
  );

  it('says in one message why DATA_DIR cannot be created, and the ways out', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    await expect(lockDataDir(join(file, 'data'))).rejects.toThrow(
      /^DATA_DIR \S+ cannot be created: ENOTDIR.* Ways out: set DATA_DIR/,
    );
  });

  it('takes over an empty or torn lock file', async () => {
    for (const content of ['', '{"pid":', 'garbage']) {
      const dir = tempDir();
      writeFileSync(join(dir, LOCK_FILE), content);
      (await lockDataDir(dir))();
    }
  });

  it('does not remove a lock another server took over after ours', async () => {
    const dir = tempDir();
    const release = await lockDataDir(dir);
    const other = otherProcess();
    const theirs = JSON.stringify(identify(other.pid));
    writeFileSync(join(dir, LOCK_FILE), theirs);
    release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(theirs);
  });

  it('refuses a second lock by this same process', async () => {
    const dir = tempDir();
    const release = await lockDataDir(dir);
    if (process.platform === 'linux') {
      await expect(lockDataDir(dir)).rejects.toThrow(
        /in use by another server/,
      );
    }
    release();
  });

  describe.skipIf(process.platform !== 'linux')('kernel lock', () => {
    it('takes over at once from a killed holder that is still a zombie', async () => {
      const dir = tempDir();
      const holder = await lockHolderThatBecomesZombie(dir);
      await expect(lockDataDir(dir)).rejects.toThrow(
        `in use by another server (pid ${holder.pid})`,
      );
      await holder.killToZombie();
      // The zombie's lock file is still there and kill(pid, 0) still succeeds.
      expect(parseHolder(readFileSync(join(dir, LOCK_FILE), 'utf8'))?.pid).toBe(
        holder.pid,
      );
      expect(() => process.kill(holder.pid, 0)).not.toThrow();
      const release = await lockDataDir(dir);
      expect(parseHolder(readFileSync(join(dir, LOCK_FILE), 'utf8'))?.pid).toBe(
        process.pid,
      );
      release();
    });

    it('treats a zombie named by a lock file as dead', async () => {
      const dir = tempDir();
      const holder = await lockHolderThatBecomesZombie(tempDir());
      await holder.killToZombie();
      expect(isLive(identify(holder.pid))).toBe(false);
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: holder.pid }));
      (await lockDataDir(dir))();
    });

    it('refuses while a live process holds the socket, even if its lock file is gone', async () => {
      const dir = tempDir();
      await lockHolderThatBecomesZombie(dir);
      rmSync(join(dir, LOCK_FILE));
      await expect(lockDataDir(dir)).rejects.toThrow(
        'in use by another server (pid unknown)',
      );
    });

    it('names the directory, not the path: a symlink to it gets the same lock', () => {
      const dir = tempDir();
      const link = join(tempDir(), 'link');
      symlinkSync(dir, link);
      expect(kernelLockName(link)).toBe(kernelLockName(dir));
      expect(kernelLockName(tempDir())).not.toBe(kernelLockName(dir));
    });

    it('release frees the socket for the next server', async () => {
      const dir = tempDir();
      (await lockDataDir(dir))();
      (await lockDataDir(dir))();
    });
  });
});
