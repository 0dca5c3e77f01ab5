import { existsSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { embeddedConnection } from '../db/embedded-connection.ts';
import {
  CLUSTER_DIR,
  clusterDirOf,
  startEmbeddedPostgres,
} from '../db/embedded-postgres.ts';
import { RestoreRefusedError } from './restore-backup.ts';

export interface Connection {
  client: pg.Client;
  /** Where, for messages: `PostgreSQL host/db` or `DATA_DIR …`. */
  where: string;
  close(): Promise<void>;
}

const PGLITE_DIR = 'pgdata';

/** Connections of our own when the script starts the cluster itself: the script's and spares. */
const OWN_CLUSTER_CONNECTIONS = 2;

async function connected(config: pg.ClientConfig | string): Promise<pg.Client> {
  const client = new pg.Client(
    typeof config === 'string' ? { connectionString: config } : config,
  );
  await client.connect();
  return client;
}

function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `PostgreSQL ${parsed.host}${parsed.pathname}`;
}

function refusePglite(config: Config): void {
  const has = (dir: string) => existsSync(join(config.dataDir, dir));
  if (
    config.databaseEngine === 'pglite' ||
    (has(PGLITE_DIR) && !has(CLUSTER_DIR))
  ) {
    throw new RestoreRefusedError(
      'backups need PostgreSQL (the embedded default or DATABASE_URL); on PGlite ' +
        '(DATABASE_ENGINE=pglite) stop the server and copy DATA_DIR instead',
    );
  }
}

/**
 * The database to back up: DATABASE_URL's, else the embedded cluster of DATA_DIR, through the
 * running server's socket when a server holds DATA_DIR, else started here (DATA_DIR locked, the
 * cluster stopped again at close).
 */
export async function connectToSource(config: Config): Promise<Connection> {
  if (config.databaseUrl) {
    const client = await connected(config.databaseUrl);
    return {
      client,
      where: describeUrl(config.databaseUrl),
      close: () => client.end(),
    };
  }
  refusePglite(config);
  // As root the cluster may live outside DATA_DIR (relocated under /var/lib/console-db).
  const home = existsSync(config.dataDir) ? realpathSync(config.dataDir) : '';
  if (!home || !existsSync(join(clusterDirOf(home), 'PG_VERSION'))) {
    throw new Error(`DATA_DIR ${config.dataDir} holds no database to back up`);
  }
  const where = `DATA_DIR ${config.dataDir}`;
  let unlock: () => void;
  try {
    unlock = await lockDataDir(config.dataDir);
  } catch (error) {
    if (!/in use/.test((error as Error).message)) throw error;
    // A server runs on it: a second session on its cluster, as any PostgreSQL client.
    const client = await connected(await embeddedConnection(config.dataDir));
    return { client, where, close: () => client.end() };
  }
  return startOwnCluster(config.dataDir, where, unlock);
}

async function startOwnCluster(
  dataDir: string,
  where: string,
  unlock: () => void,
): Promise<Connection> {
  let cluster;
  try {
    cluster = await startEmbeddedPostgres(
      dataDir,
      OWN_CLUSTER_CONNECTIONS,
      (code, signal) => {
        console.error(
          `embedded PostgreSQL exited (${signal ?? `code ${code}`})`,
        );
        process.exit(1);
      },
    );
  } catch (error) {
    unlock();
    throw error;
  }
  let client: pg.Client;
  try {
    client = await connected(cluster.url);
  } catch (error) {
    await cluster.stop();
    unlock();
    throw error;
  }
  return {
    client,
    where,
    async close() {
      try {
        await client.end();
        await cluster.stop();
      } finally {
        unlock();
      }
    },
  };
}

export interface Target extends Connection {
  /** Undoes what opening the target created (the cluster of an empty DATA_DIR): on a failure. */
  undo(): Promise<void>;
}

/**
 * The empty place to restore into: DATABASE_URL's database, else DATA_DIR, which must be absent
 * or empty (the cluster is created in it). Anything else is refused before it is touched.
 */
export async function connectToTarget(config: Config): Promise<Target> {
  if (config.databaseUrl) {
    const client = await connected(config.databaseUrl);
    return {
      client,
      where: describeUrl(config.databaseUrl),
      close: () => client.end(),
      // The restore's transaction was rolled back: nothing to undo but the connection.
      undo: () => client.end(),
    };
  }
  if (config.dataDir.startsWith('memory://')) {
    throw new RestoreRefusedError(
      'DATA_DIR memory:// keeps nothing to restore into',
    );
  }
  if (config.databaseEngine === 'pglite') refusePglite(config);
  const existed = existsSync(config.dataDir);
  if (
    existed &&
    (readdirSync(config.dataDir).length > 0 ||
      existsSync(
        join(clusterDirOf(realpathSync(config.dataDir)), 'PG_VERSION'),
      ))
  ) {
    throw new RestoreRefusedError(
      `DATA_DIR ${config.dataDir} is not empty: a restore only goes into an empty or new ` +
        'DATA_DIR, and changed nothing in this one',
    );
  }
  const unlock = await lockDataDir(config.dataDir);
  const connection = await startOwnCluster(
    config.dataDir,
    `DATA_DIR ${config.dataDir}`,
    unlock,
  );
  return {
    ...connection,
    async undo() {
      await connection.close();
      // As root the new cluster may have been put outside DATA_DIR: it goes too.
      const cluster = clusterDirOf(realpathSync(config.dataDir));
      if (!cluster.startsWith(realpathSync(config.dataDir))) {
        rmSync(dirname(cluster), { recursive: true, force: true });
      }
      // Back to the empty (or absent) DATA_DIR it was.
      if (existed) {
        for (const entry of readdirSync(config.dataDir)) {
          rmSync(join(config.dataDir, entry), { recursive: true, force: true });
        }
      } else {
        rmSync(config.dataDir, { recursive: true, force: true });
      }
    },
  };
}
