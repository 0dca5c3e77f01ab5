import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { freePort } from '../tests/support/spawn-server.ts';

export const ROOT = resolve(import.meta.dirname, '..');

export interface BenchProcess {
  url: string;
  pid: number;
  /** The file the process writes its stdout and stderr to. */
  logFile: string;
  /** SIGTERM, then resolves when the process has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `node <entry>` (Node 24, this process's own) on a free port, its stdout and stderr
 * going to `logFile` rather than to a pipe: a server logging every request at thousands per
 * second would otherwise make the bench read and keep megabytes of log on the same 2 cores.
 * Resolves once `GET <readyPath>` answers 200.
 */
export async function spawnLogged(
  entry: string,
  env: Record<string, string>,
  options: { logFile: string; nodeArgs?: string[]; readyPath?: string },
  timeoutMs = 120_000,
): Promise<BenchProcess> {
  const port = env.PORT ?? String(await freePort());
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[key];
    if (value !== undefined) base[key] = value;
  }
  mkdirSync(dirname(options.logFile), { recursive: true });
  const fd = openSync(options.logFile, 'w');
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), resolve(ROOT, entry)],
    {
      cwd: ROOT,
      env: { ...base, HOST: '127.0.0.1', ...env, PORT: port },
      stdio: ['ignore', fd, fd],
    },
  );
  closeSync(fd);
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code) => done(code)),
  );
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null)
      child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      throw new Error(
        `${entry} exited with ${exitCode} before it was ready:\n${readFileSync(options.logFile, 'utf8')}`,
      );
    }
    try {
      const answer = await fetch(`${url}${options.readyPath ?? '/api/health'}`);
      if (answer.status === 200)
        return { url, pid: child.pid!, logFile: options.logFile, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${entry} not ready after ${timeoutMs} ms`);
}
