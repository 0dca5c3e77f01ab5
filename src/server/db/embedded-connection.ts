import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientConfig } from 'pg';
import {
  clusterDirOf,
  DB_NAME,
  DB_ROLE,
  readClusterFile,
  readPassword,
} from './embedded-postgres.ts';

/**
 * How another process of the same user (`npm run backup`, an operator's script) connects to the
 * embedded PostgreSQL of `dataDir` while its server runs: the cluster's socket folder (wherever
 * the cluster lives: DATA_DIR/postgres, or as root its relocated home under /var/lib/console-db),
 * its port, the superuser and the password kept in DATA_DIR. Throws when there is no cluster or
 * it is not running.
 */
export async function embeddedConnection(
  dataDir: string,
): Promise<ClientConfig> {
  const home = realpathSync(dataDir);
  const cluster = clusterDirOf(home);
  // postmaster.pid: pid, data folder, start time, port, socket folder, … (PostgreSQL's layout).
  const pidFile = readClusterFile(join(cluster, 'postmaster.pid'));
  const lines = pidFile?.split('\n') ?? [];
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !running(pid)) {
    throw new Error(
      `the embedded PostgreSQL of DATA_DIR ${home} is not running (no live postmaster in ${cluster})`,
    );
  }
  const port = Number(lines[3]);
  const socketDir = lines[4]?.trim() || cluster;
  const password = readPassword(home);
  return {
    host: socketDir,
    port: Number.isInteger(port) && port > 0 ? port : 5432,
    user: DB_ROLE,
    database: DB_NAME,
    ...(password === undefined ? {} : { password }),
  };
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
