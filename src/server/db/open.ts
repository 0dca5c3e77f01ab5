import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config, DatabaseEngine } from '../config.ts';
import {
  connectionsPerNode,
  openPglite,
  openPostgres,
  type Db,
} from './client.ts';
import { lockDataDir } from './data-dir-lock.ts';
import {
  cannotRunPostgres,
  CLUSTER_DIR,
  LOG_FILE,
  startEmbeddedPostgres,
} from './embedded-postgres.ts';
import { migrate } from './migrate.ts';

/**
 * Opens the configured database and migrates it: the PostgreSQL of DATABASE_URL if set, else the
 * embedded engine of DATABASE_ENGINE on DATA_DIR (held locked while open).
 */
export async function openDatabase(config: Config): Promise<Db> {
  let db: Db;
  if (config.databaseUrl) {
    db = await openPostgres(config.databaseUrl);
  } else if (config.dataDir.startsWith('memory://')) {
    db = await openPglite(config.dataDir, config.pgliteTemplate);
  } else {
    db = await openEmbedded(config);
  }
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/**
 * The embedded database of DATA_DIR as it is (not migrated: `npm run ledger:verify` only reads
 * it), with DATABASE_ENGINE's engine (embeddedEngine), DATA_DIR locked until it closes.
 */
export async function openEmbedded(config: Config): Promise<Db> {
  const unlock = await lockDataDir(config.dataDir);
  let db: Db;
  try {
    db =
      (await embeddedEngine(config)) === 'postgres'
        ? await openEmbeddedPostgres(config)
        : await openPglite(join(config.dataDir, PGLITE_DIR));
  } catch (error) {
    unlock();
    throw error;
  }
  const opened = db;
  return {
    ...opened,
    close: async () => {
      try {
        await opened.close();
      } finally {
        unlock();
      }
    },
  };
}

const PGLITE_DIR = 'pgdata';

/**
 * DATABASE_ENGINE, or when unset: PostgreSQL, unless DATA_DIR already holds PGlite's data and no
 * cluster (a DATA_DIR from before PostgreSQL was the default keeps its data), or unless the
 * binaries cannot run on this machine (then PGlite, said on stderr).
 */
async function embeddedEngine(config: Config): Promise<DatabaseEngine> {
  if (config.databaseEngine) return config.databaseEngine;
  const has = (dir: string) => existsSync(join(config.dataDir, dir));
  if (has(PGLITE_DIR) && !has(CLUSTER_DIR)) return 'pglite';
  const reason = await cannotRunPostgres();
  if (reason === undefined) return 'postgres';
  console.warn(`embedded PostgreSQL unavailable (${reason}): using PGlite`);
  return 'pglite';
}

/**
 * DATABASE_ENGINE=postgres: starts the cluster in DATA_DIR and connects to it. The rest of the
 * server (job queue, revocation listener) connects by URL, so `config.databaseUrl` becomes the
 * cluster's. Closing stops the cluster after the pool.
 */
async function openEmbeddedPostgres(config: Config): Promise<Db> {
  const cluster = await startEmbeddedPostgres(
    config.dataDir,
    connectionsPerNode(config.delivery.workers),
    (code, signal) => {
      // Nothing works without it, and nothing is left to save: stop now, loudly.
      console.error(
        `embedded PostgreSQL exited unexpectedly (${signal ?? `code ${code}`}); ` +
          `see ${join(config.dataDir, LOG_FILE)}`,
      );
      process.exit(1);
    },
  );
  let db: Db;
  try {
    db = await openPostgres(cluster.url);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  config.databaseUrl = cluster.url;
  return {
    ...db,
    embedded: true,
    close: async () => {
      try {
        await db.close();
      } finally {
        await cluster.stop();
      }
    },
  };
}
