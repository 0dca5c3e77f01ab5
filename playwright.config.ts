import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { ADMIN } from './tests/e2e/admin.ts';
import { CHROMIUM_LAUNCH } from './tests/support/chromium.ts';

/** A port nobody listens on now; the OS picks it. */
async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

// Workers load this file again: the port chosen by the main process is handed down through
// the environment so every process talks to the same server.
process.env.E2E_PORT ??= String(await freePort());
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

// Node 24 from the `node` devDependency, whatever Node runs Playwright itself.
const localNode = resolve('node_modules/.bin/node');
const node = existsSync(localNode) ? localNode : process.execPath;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  // One retry in CI: a 2-core machine running every suite at once can starve a browser; a
  // test that needs its retry is reported as flaky in test-results, not hidden.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: 'test-results/e2e-results.json' }],
  ],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    viewport: { width: 1280, height: 800 },
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [{ name: 'chromium' }],
  // The built console (`vite build` → dist/web) served by the real server on a fresh
  // temporary DATA_DIR (tests/e2e/serve.ts removes it when the server stops).
  webServer: {
    command: `"${node}" tests/e2e/serve.ts`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      WEB_DIR: 'dist/web',
      LOG_LEVEL: 'warn',
      // Every test registers its own users from one address, far faster than people do.
      REGISTER_LIMIT: '100000',
      // The status callback test's receiver listens on 127.0.0.1.
      STATUS_CALLBACK_ALLOW_PRIVATE: 'true',
    },
  },
});
