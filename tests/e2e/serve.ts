import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The e2e web server: the real server (src/server/main.ts, serving the built console) on a
 * fresh temporary DATA_DIR, which is removed once the server has stopped.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'console-e2e-'));
const server = spawn(process.execPath, ['src/server/main.ts'], {
  // The suites run on PGlite (DATABASE_ENGINE picks another engine).
  env: { DATABASE_ENGINE: 'pglite', ...process.env, DATA_DIR: dataDir },
  stdio: 'inherit',
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => server.kill(signal));
}

server.on('exit', (code, signal) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
