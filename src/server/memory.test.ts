import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'console-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs `entry` with NODE_COMPILE_CACHE=`cache` until it prints a line, then kills it (SIGKILL:
 * no exit handler runs); resolves with that line.
 */
function firstLineThenKill(entry: string, cache: string): Promise<string> {
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, NODE_COMPILE_CACHE: cache },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) {
        child.kill('SIGKILL');
        resolve(out.trim());
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

describe('memory after a start', () => {
  it('saveCompileCache leaves the compile cache on disk: the next start, even after a kill, strips no types', async () => {
    const entry = join(dir, 'entry.ts');
    const memory = pathToFileURL(join(import.meta.dirname, 'memory.ts'));
    writeFileSync(
      entry,
      `import { saveCompileCache } from '${memory.href}';\n` +
        'const started: number = Date.now();\n' +
        'saveCompileCache();\n' +
        "const stripper = process.moduleLoadList.some((m) => m.includes('amaro'));\n" +
        'console.log(JSON.stringify({ stripper, started }));\n' +
        'setInterval(() => undefined, 60_000);\n',
    );
    const cache = join(dir, 'cache');
    const first = JSON.parse(await firstLineThenKill(entry, cache));
    expect(first.stripper).toBe(true);
    const again = JSON.parse(await firstLineThenKill(entry, cache));
    expect(again.stripper).toBe(false);
  });
});
