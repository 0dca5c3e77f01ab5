/**
 * What this server is (CONTRACT.md "Running it in production", "What it is"): the release of
 * package.json and the commit of the checkout it runs from. Read once per process, from files
 * only: no `git` process on a request (nor at start: git may not be installed where it runs).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export interface BuildInfo {
  /** package.json's name. */
  name: string;
  /** package.json's version. */
  version: string;
  /** The checked-out commit (40 hex digits); null when the server is not run from a git checkout. */
  commit: string | null;
}

const ROOT = resolve(import.meta.dirname, '../..');
const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The commit HEAD names in the checkout at `root`, as git itself resolves it: `.git` is the
 * repository or (a worktree, a submodule) a file `gitdir: <path>`; HEAD holds a sha (detached)
 * or `ref: refs/heads/<branch>`, whose sha is in the loose ref file, else in packed-refs; a
 * worktree keeps its HEAD in its own git dir and shares refs with the main one (`commondir`).
 * Null when any of it is missing or not what git writes.
 */
export function checkoutCommit(root: string): string | null {
  let gitDir = join(root, '.git');
  const pointer = read(gitDir);
  if (pointer !== undefined) {
    const match = /^gitdir: (.+)$/m.exec(pointer);
    if (!match) return null;
    gitDir = isAbsolute(match[1]!) ? match[1]! : resolve(root, match[1]!);
  }
  const head = read(join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return null;
  if (SHA.test(head)) return head;
  const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
  if (!ref) return null;
  const common = read(join(gitDir, 'commondir'))?.trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  for (const dir of new Set([gitDir, commonDir])) {
    const loose = read(join(dir, ref))?.trim();
    if (loose !== undefined && SHA.test(loose)) return loose;
  }
  const packed = read(join(commonDir, 'packed-refs')) ?? '';
  for (const line of packed.split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && sha && SHA.test(sha)) return sha;
  }
  return null;
}

let cached: BuildInfo | undefined;

/** This process's build, read on first use and kept (a checkout that moves meanwhile is not this process's code). */
export function buildInfo(): BuildInfo {
  if (cached === undefined) {
    const pkg = JSON.parse(read(join(ROOT, 'package.json')) ?? '{}') as {
      name?: string;
      version?: string;
    };
    cached = {
      name: pkg.name ?? 'unknown',
      version: pkg.version ?? 'unknown',
      commit: checkoutCommit(ROOT),
    };
  }
  return cached;
}
