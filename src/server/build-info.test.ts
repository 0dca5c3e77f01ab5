import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildInfo, checkoutCommit } from './build-info.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

const made: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-build-info-'));
  made.push(dir);
  return dir;
}
function write(path: string, text: string) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}
afterEach(() => {
  for (const dir of made.splice(0))
    rmSync(dir, { recursive: true, force: true });
});

describe('checkoutCommit', () => {
  it('is null outside a git checkout', () => {
    expect(checkoutCommit(folder())).toBeNull();
  });

  it('reads a branch from its loose ref, else from packed-refs', () => {
    const root = folder();
    write(join(root, '.git/HEAD'), 'ref: refs/heads/main\n');
    write(
      join(root, '.git/packed-refs'),
      `# pack-refs with: peeled fully-peeled sorted\n${B} refs/heads/main\n${A} refs/heads/other\n`,
    );
    expect(checkoutCommit(root)).toBe(B);
    write(join(root, '.git/refs/heads/main'), `${A}\n`);
    expect(checkoutCommit(root)).toBe(A);
  });

  it('reads a detached HEAD', () => {
    const root = folder();
    write(join(root, '.git/HEAD'), `${A}\n`);
    expect(checkoutCommit(root)).toBe(A);
  });

  it('follows a worktree: its own HEAD, the shared refs of the main repository', () => {
    const main = folder();
    const tree = folder();
    const gitDir = join(main, '.git/worktrees/tree');
    write(join(tree, '.git'), `gitdir: ${gitDir}\n`);
    write(join(gitDir, 'HEAD'), 'ref: refs/heads/feature\n');
    write(join(gitDir, 'commondir'), '../..\n');
    write(join(main, '.git/refs/heads/feature'), `${B}\n`);
    expect(checkoutCommit(tree)).toBe(B);
  });

  it('is null for a HEAD or ref that is not what git writes', () => {
    const root = folder();
    write(join(root, '.git/HEAD'), 'ref: refs/heads/gone\n');
    expect(checkoutCommit(root)).toBeNull();
    write(join(root, '.git/HEAD'), 'garbage\n');
    expect(checkoutCommit(root)).toBeNull();
  });
});

describe('buildInfo', () => {
  it("names package.json's release and reads it once", () => {
    const info = buildInfo();
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(buildInfo()).toBe(info);
  });
});
