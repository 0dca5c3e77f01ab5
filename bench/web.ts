/**
 * `node bench/web.ts`: builds the console, then prints what the first load of `/#/login`
 * costs: the JavaScript it loads (files, raw and gzip bytes; budget 110 KB gzip) and the
 * time from navigation start to a usable login form in headless Chromium, median of
 * BENCH_RUNS (7) cold loads. Then the admin code: the JavaScript `/#/admin/clients` loads
 * beyond what the customer shell (`/#/quickstart`) loads, which `/#/login` must never load.
 * Exits 1 when the JavaScript is over budget or the login route loads admin code.
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
import { CHROMIUM_LAUNCH } from '../tests/support/chromium.ts';
import { median, reportFigures } from './report.ts';
import { seconds } from './server.ts';

const ROOT = resolve(import.meta.dirname, '..');
const WEB_DIR = join(ROOT, 'dist/web');
const RUNS = seconds('BENCH_RUNS', 7);
const BUDGET_KB = 110;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

console.log('web: building the console (vite build)…');
const build = spawnSync(
  process.execPath,
  [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
  { cwd: ROOT, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const dataDir = tempDataDir('bench-web');
const ADMIN = {
  email: 'bench-web-admin@example.test',
  password: 'bench-web-admin-1',
};
const server = await spawnServer(
  {
    DATA_DIR: dataDir,
    WEB_DIR: WEB_DIR,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  },
  120_000,
);
const browser = await chromium.launch(CHROMIUM_LAUNCH);

function gzipSize(paths: readonly string[]): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const path of paths) {
    const bytes = readFileSync(join(WEB_DIR, path));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

/** The scripts a logged-in first visit to `path` loads, once `ready` says the screen is up. */
async function scriptsLoadedBy(
  path: string,
  credentials: { email: string; password: string },
  ready: (page: import('@playwright/test').Page) => Promise<void>,
): Promise<Set<string>> {
  const context = await browser.newContext();
  await context.addInitScript((stored) => {
    localStorage.setItem('email', stored.email);
    localStorage.setItem('password', stored.password);
  }, credentials);
  const page = await context.newPage();
  const loaded = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') {
      loaded.add(new URL(response.url()).pathname);
    }
  });
  await page.goto(`${server.url}/#${path}`);
  await ready(page);
  await context.close();
  return loaded;
}

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

  const customer = {
    email: 'bench-web-customer@example.test',
    password: 'bench-web-customer-1',
  };
  const registered = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...customer, firstName: 'Bench', lastName: 'Web' }),
  });
  if (registered.status !== 201) throw new Error('could not register');
  const customerScripts = await scriptsLoadedBy(
    '/quickstart',
    customer,
    (page) => page.getByRole('heading', { name: 'Quick Start' }).waitFor(),
  );
  const adminScripts = await scriptsLoadedBy('/admin/clients', ADMIN, (page) =>
    page.getByRole('heading', { name: 'Clients' }).waitFor(),
  );
  const adminOnly = [...adminScripts].filter(
    (path) => !customerScripts.has(path),
  );
  const adminSize = gzipSize(adminOnly);
  const leaked = adminOnly.filter((path) => scripts.includes(path));
  console.log(
    `\nAdmin code: what /#/admin/clients loads beyond the customer shell (${adminOnly.length} files):`,
  );
  for (const path of adminOnly.sort()) {
    const size = gzipSize([path]);
    console.log(
      `  ${path.padEnd(48)} ${kb(size.raw).padStart(10)} ${kb(size.gzip).padStart(10)}`,
    );
  }
  console.log(
    `  total: ${kb(adminSize.raw)} raw, ${kb(adminSize.gzip)} gzip; loaded by /#/login: ${leaked.length === 0 ? 'none' : leaked.join(', ')}`,
  );
  reportFigures('web', [
    {
      name: 'JavaScript of /#/login, gzip',
      value: Number((gzip / 1024).toFixed(1)),
      unit: 'KB',
      target: { op: '<=', value: BUDGET_KB },
    },
    {
      name: 'time to a usable login form, median',
      value: Math.round(median(timings)),
      unit: 'ms',
    },
    {
      name: 'admin files loaded by /#/login',
      value: leaked.length,
      unit: '',
      target: { op: '<=', value: 0 },
    },
  ]);
  process.exitCode = within && leaked.length === 0 ? 0 : 1;
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
}
