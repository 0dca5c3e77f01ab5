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
  EmbeddedPostgresError,
  LOG_FILE,
  startEmbeddedPostgres,
} from './embedded-postgres.ts';
import { migrate } from './migrate.ts';

/**
 * The database engine in use, for `GET /api/version`'s `engine` and the start log: a plain data
 * object on the open Db (`db.engine`).
 * - `postgres-embedded`: the PostgreSQL the server runs itself; `where` is its cluster folder
 *   (DATA_DIR/postgres, or as root /var/lib/console-db/<hash>/postgres when the cluster's user
 *   cannot reach DATA_DIR);
 * - `pglite`: `where` is PGlite's folder (DATA_DIR/pgdata) or `memory://…`;
 * - `postgres`: DATABASE_URL's server; `where` is its host and database, without credentials.
 */
export interface EngineInUse {
  kind: 'postgres-embedded' | 'pglite' | 'postgres';
  where: string;
}

/** The engine of a database opened by openDatabase (the server's own, never a bare test Db). */
export function engineInUse(db: Db): EngineInUse {
  if (!db.engine)
    throw new Error('engineInUse: a database not opened by openDatabase');
  return db.engine;
}

/** DATABASE_URL's host and database, its user and password left out. */
function serverOf(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.searchParams.get('host') ?? parsed.host;
    return `${host}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * Opens the configured database and migrates it: the PostgreSQL of DATABASE_URL if set, else the
 * embedded engine of DATABASE_ENGINE on DATA_DIR (held locked while open).
 */
export async function openDatabase(config: Config): Promise<Db> {
  let db: Db;
  if (config.databaseUrl) {
    db = {
      ...(await openPostgres(config.databaseUrl)),
      engine: { kind: 'postgres', where: serverOf(config.databaseUrl) },
    };
  } else if (config.dataDir.startsWith('memory://')) {
    db = {
      ...(await openPglite(config.dataDir, config.pgliteTemplate)),
      engine: { kind: 'pglite', where: config.dataDir },
    };
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
        ? await openEmbeddedPostgres(config).catch((error: unknown) => {
            // DATABASE_ENGINE unset and the machine's fault (no useradd, nowhere to relocate
            // to): the start goes on, on PGlite, and says so first.
            if (
              config.databaseEngine ||
              !(error instanceof EmbeddedPostgresError) ||
              !error.fallback
            ) {
              throw error;
            }
            console.warn(
              `embedded PostgreSQL unavailable (${error.what}: ${error.why}): using PGlite in ` +
                join(config.dataDir, PGLITE_DIR),
            );
            return openPgliteIn(config.dataDir);
          })
        : await openPgliteIn(config.dataDir);
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

async function openPgliteIn(dataDir: string): Promise<Db> {
  const where = join(dataDir, PGLITE_DIR);
  return { ...(await openPglite(where)), engine: { kind: 'pglite', where } };
}

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
  ).catch((error: unknown) => {
    // A system call's failure (EACCES, ENOSPC…) is said with the ways out, like the rest.
    if (error instanceof EmbeddedPostgresError) throw error;
    throw new EmbeddedPostgresError(
      `starting it in DATA_DIR ${config.dataDir} failed`,
      (error as Error).message,
    );
  });
  // Where it runs when that is not DATA_DIR, before anything else is logged.
  for (const note of cluster.notes)
    console.warn(`embedded PostgreSQL: ${note}`);
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
    engine: { kind: 'postgres-embedded', where: cluster.cluster },
    close: async () => {
      try {
        await db.close();
      } finally {
        await cluster.stop();
      }
    },
  };
}
