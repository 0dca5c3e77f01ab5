/**
 * `node bench/web.ts`: builds the console, then prints what the first load of `/#/login`
 * costs: the JavaScript it loads (files, raw and gzip bytes; budget 150 KB gzip) and the
 * time from navigation start to a usable login form in headless Chromium, median of
 * BENCH_RUNS (7) cold loads. Exits 1 when the JavaScript is over budget.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rmSync } from 'node:fs';
import { chromium } from '@playwright/test';
import {
  spawnServer,
  stopServer,
  tempDataDir,
} from '../tests/support/spawn-server.ts';
import { seconds } from './server.ts';

const ROOT = resolve(import.meta.dirname, '..');
const WEB_DIR = join(ROOT, 'dist/web');
const RUNS = seconds('BENCH_RUNS', 7);
const BUDGET_KB = 150;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[middle]!
    : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

console.log('web: building the console (vite build)…');
const build = spawnSync(
  process.execPath,
  [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
  { cwd: ROOT, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const dataDir = tempDataDir('bench-web');
const server = await spawnServer(
  { DATA_DIR: dataDir, WEB_DIR: WEB_DIR },
  120_000,
);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
});

try {
  const timings: number[] = [];
  let scripts: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    // A new context each time: empty cache, as on a first visit.
    const context = await browser.newContext();
    const page = await context.newPage();
    const loaded: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') {
        loaded.push(new URL(response.url()).pathname);
      }
    });
    await page.goto(`${server.url}/#/login`);
    await page.getByLabel('Email').waitFor();
    await page.getByRole('heading', { name: /^Login to \S/ }).waitFor();
    // Navigation start → the form is on screen with the product name.
    timings.push(await page.evaluate(() => performance.now()));
    if (run === 0) scripts = [...new Set(loaded)];
    await context.close();
  }

  let raw = 0;
  let gzip = 0;
  const rows = scripts.map((path) => {
    const bytes = readFileSync(join(WEB_DIR, path));
    const zipped = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzip += zipped;
    return `  ${path.padEnd(48)} ${kb(bytes.length).padStart(10)} ${kb(zipped).padStart(10)}`;
  });
  console.log(`\nJavaScript loaded by /#/login (${scripts.length} files):`);
  console.log(
    `  ${'file'.padEnd(48)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)}`,
  );
  for (const row of rows) console.log(row);
  const within = gzip / 1024 <= BUDGET_KB;
  console.log(
    `  total: ${kb(raw)} raw, ${kb(gzip)} gzip (budget ${BUDGET_KB} KB: ${within ? 'within' : 'OVER'})`,
  );
  console.log(
    `\nTime to the login form (navigation start → form with product name), ${RUNS} cold loads:`,
  );
  console.log(
    `  median ${median(timings).toFixed(0)} ms (runs: ${timings.map((t) => t.toFixed(0)).join(', ')} ms)`,
  );
  process.exitCode = within ? 0 : 1;
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
}
