/**
 * `npm start`: builds the console when its sources are newer than the build, then runs the
 * server in this same process, so SIGTERM sent to this pid reaches the server's graceful close.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const WEB_SOURCES = ['src/web', 'src/shared', 'vite.config.ts'];
const BUILT_INDEX = 'dist/web/index.html';

/** Newest modification time under `path`, ignoring tests (they are not part of the bundle). */
function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (/\.test\.tsx?$/.test(entry.name)) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

function consoleNeedsBuild(): boolean {
  const built = join(ROOT, BUILT_INDEX);
  if (!existsSync(built)) return true;
  const sources = Math.max(
    ...WEB_SOURCES.map((source) => newestMtime(join(ROOT, source))),
  );
  return sources > statSync(built).mtimeMs;
}

function buildConsole(): void {
  if (!existsSync(join(ROOT, 'src/web/index.html'))) {
    console.warn(
      'start: src/web/index.html is missing, skipping the console build (the API still runs)',
    );
    return;
  }
  console.log('start: building the console (vite build)…');
  // A child process, so the bundler's memory is not kept by the long-running server.
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(process.execPath, [vite, 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(
      'start: the console build failed; fix it or run `npm run build`',
    );
    process.exit(result.status ?? 1);
  }
}

// An operator who points WEB_DIR elsewhere ships their own build.
const customWebDir =
  process.env.WEB_DIR &&
  resolve(process.env.WEB_DIR) !== join(ROOT, 'dist/web');
if (!customWebDir && consoleNeedsBuild()) buildConsole();

await import('../src/server/main.ts');
