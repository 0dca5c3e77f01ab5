import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type AppTuning } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';

import { ADMIN } from './admin.ts';
import { scratchDatabase } from './scratch-database.ts';

export { ADMIN };

export interface TestServer {
  url: string;
  /** The server itself, for tests that read its route table. */
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * A fresh database for each test file: a new database on the PostgreSQL server named by
 * TEST_DATABASE_URL (the API project's main pass, see vite.config.ts), copied from the run's
 * migrated template; an in-memory PGlite when it is unset (the PGlite pass).
 */
export async function freshDatabaseUrl(): Promise<{
  url?: string;
  drop(): Promise<void>;
}> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { drop: async () => undefined };
  return scratchDatabase(serverUrl, 'test', migratedTemplateOf(serverUrl));
}

/**
 * The run's migrated template database (postgres-setup.ts) when `serverUrl` is the server it
 * was made on; undefined otherwise (the new database is then empty and the server migrates it).
 */
export function migratedTemplateOf(serverUrl: string): string | undefined {
  return inject('testDatabaseUrl') === serverUrl
    ? inject('postgresTemplate')
    : undefined;
}

/**
 * An in-memory embedded database starts from the dump migrated once per run by the project's
 * global setup (pglite-template.ts) instead of running initdb and every migration again.
 */
export function useMigratedTemplate(config: Config): Config {
  if (config.dataDir === 'memory://' && !config.databaseUrl) {
    config.pgliteTemplate = new Blob([readFileSync(inject('pgliteTemplate'))]);
  }
  return config;
}

/**
 * The simulated provider's delay before its DELIVERED receipt in test servers: the product's
 * 200 ms stands for a real network; every simulated send of a test waited that long for its
 * receipt. A test that needs a longer one passes `simulatorDelayMs` itself.
 */
export const TEST_SIMULATOR_DELAY_MS = 20;

/** Starts the real server over HTTP on a free port; `tuning` shortens delivery's timers. */
export async function startServer(
  env: Record<string, string> = {},
  tuning: AppTuning = {},
): Promise<TestServer> {
  const database = await freshDatabaseUrl();
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    WEB_DIR: '.tmp/no-console',
    // Test files register far more users a minute than a person would, all from 127.0.0.1;
    // the registration limit has its own test, which sets it back.
    REGISTER_LIMIT: '100000',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  if (!database.url) useMigratedTemplate(config);
  const app = await buildApp(config, {
    simulatorDelayMs: TEST_SIMULATOR_DELAY_MS,
    ...tuning,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    app,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
