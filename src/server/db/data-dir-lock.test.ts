import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  identify,
  isLive,
  LOCK_FILE,
  lockDataDir,
  parseHolder,
} from './data-dir-lock.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'lock-test-'));
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

describe('lockDataDir', () => {
  it('creates the directory and a lock naming this process; release removes it', () => {
    const dir = join(tempDir(), 'nested', 'data');
    const release = lockDataDir(dir);
    const lock = join(dir, LOCK_FILE);
    const holder = parseHolder(readFileSync(lock, 'utf8'));
    expect(holder?.pid).toBe(process.pid);
    release();
    expect(existsSync(lock)).toBe(false);
    // No staging files are left behind.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses while another live process holds the lock, naming its pid', () => {
    const dir = tempDir();
    const other = otherProcess();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(identify(other.pid)));
    expect(() => lockDataDir(dir)).toThrow(
      new RegExp(`in use by another server \\(pid ${other.pid}\\)`),
    );
    expect(parseHolder(readFileSync(join(dir, LOCK_FILE), 'utf8'))?.pid).toBe(
      other.pid,
    );
  });

  it('also refuses for a lock holding only a live pid (older format)', () => {
    const dir = tempDir();
    const other = otherProcess();
    writeFileSync(join(dir, LOCK_FILE), String(other.pid));
    expect(() => lockDataDir(dir)).toThrow(/in use by another server/);
  });

  it('takes over a lock left by a dead process', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: await deadPid() }),
    );
    const release = lockDataDir(dir);
    expect(parseHolder(readFileSync(join(dir, LOCK_FILE), 'utf8'))?.pid).toBe(
      process.pid,
    );
    release();
  });

  it('takes over a lock whose pid now belongs to another process (pid reuse)', () => {
    const dir = tempDir();
    const other = otherProcess();
    const reused = { ...identify(other.pid), start: '1' };
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(reused));
    expect(isLive(reused)).toBe(process.platform !== 'linux');
    if (process.platform === 'linux') lockDataDir(dir)();
  });

  it('takes over an empty or torn lock file', () => {
    for (const content of ['', '{"pid":', 'garbage']) {
      const dir = tempDir();
      writeFileSync(join(dir, LOCK_FILE), content);
      lockDataDir(dir)();
    }
  });

  it('does not remove a lock another server took over after ours', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    const other = otherProcess();
    const theirs = JSON.stringify(identify(other.pid));
    writeFileSync(join(dir, LOCK_FILE), theirs);
    release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(theirs);
  });

  it('refuses a second lock by this same process', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    if (process.platform === 'linux') {
      expect(() => lockDataDir(dir)).toThrow(/in use by another server/);
    }
    release();
  });
});
