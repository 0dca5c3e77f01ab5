import { globSync, readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './scripts/vite-precompress.ts';
import LongestFirst from './tests/support/longest-first.ts';

const API_TESTS = 'tests/api/**/*.test.ts';

/**
 * The API files that also run on the embedded PGlite: those whose line `// @also-on-pglite:
 * <why>` says what they check that differs by engine (PGlite's own driver, transactions, text
 * and numeric handling, its job-queue adapter and LISTEN, the in-memory sign-in throttle…).
 * Every API file runs on PostgreSQL (the `api` project); a file whose servers never depend on
 * TEST_DATABASE_URL needs no mark either way.
 */
export const PGLITE_MARK = /^\/\/ @also-on-pglite:/m;
const alsoOnPglite = globSync(API_TESTS).filter((file) =>
  PGLITE_MARK.test(readFileSync(file, 'utf8')),
);

/**
 * Files run at once. Vitest's default (available cores − 1) ran one file at a time on CI's 2
 * cores. The unit and component tests are CPU alone: one per core. The API files mostly wait
 * (PostgreSQL, timers, spawned servers): more than the cores keep both busy. Both API passes
 * share one pool (same groupOrder, so the same count); a run of every project (`vitest run`)
 * runs the unit projects first (groupOrder 0), then the API ones.
 */
const UNIT_WORKERS = 2;
/**
 * The unit and component tests' time limit (Vitest's default is 5 s): two files at once beside
 * the type checks and lint (npm test) on two cores, a jsdom test rendering a whole screen took
 * longer.
 */
const UNIT_TEST_TIMEOUT_MS = 20_000;
const API_WORKERS = 3;
/**
 * A test's time limit, a hang detector: with API_WORKERS files sharing two cores a CPU-heavy
 * test (a fleet of processes, a hundred sign-ins) takes up to three times what it did alone.
 */
const API_TEST_TIMEOUT_MS = 60_000;
/**
 * expect.poll's own default (1 s) is a hang detector too short for a loaded machine: a spawned
 * server's log line took longer (operations.test.ts). A test whose bound is the contract's says
 * so with its own `timeout`.
 */
const API_POLL = { timeout: 5_000 };

export default defineConfig({
  root: 'src/web',
  base: './',
  plugins: [react(), precompress()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    root: '.',
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          root: '.',
          environment: 'node',
          maxWorkers: UNIT_WORKERS,
          testTimeout: UNIT_TEST_TIMEOUT_MS,
          include: [
            'src/shared/**/*.test.ts',
            'src/server/**/*.test.ts',
            'tests/lint/**/*.test.ts',
            'scripts/**/*.test.ts',
            'tests/support/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'web',
          root: '.',
          environment: 'jsdom',
          maxWorkers: UNIT_WORKERS,
          testTimeout: UNIT_TEST_TIMEOUT_MS,
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/testing/setup-tests.ts'],
        },
      },
      {
        test: {
          name: 'api',
          root: '.',
          environment: 'node',
          maxWorkers: API_WORKERS,
          sequence: { groupOrder: 1 },
          include: [API_TESTS],
          // PostgreSQL (TEST_DATABASE_URL, else a cluster of the run's own) and its migrated
          // template; PGlite's template too, for the files whose servers always run on it.
          globalSetup: [
            'tests/support/postgres-setup.ts',
            'tests/support/pglite-template.ts',
          ],
          setupFiles: [
            'tests/support/engine-postgres.ts',
            'tests/support/remove-temp-dirs.ts',
          ],
          testTimeout: API_TEST_TIMEOUT_MS,
          hookTimeout: 2 * API_TEST_TIMEOUT_MS,
          expect: { poll: API_POLL },
        },
      },
      {
        test: {
          name: 'api-pglite',
          root: '.',
          environment: 'node',
          maxWorkers: API_WORKERS,
          sequence: { groupOrder: 1 },
          include: alsoOnPglite,
          globalSetup: ['tests/support/pglite-template.ts'],
          setupFiles: [
            'tests/support/engine-pglite.ts',
            'tests/support/remove-temp-dirs.ts',
          ],
          testTimeout: API_TEST_TIMEOUT_MS,
          hookTimeout: 2 * API_TEST_TIMEOUT_MS,
          expect: { poll: API_POLL },
        },
      },
    ],
  },
});
