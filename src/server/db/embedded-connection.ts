import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { CLUSTER_DIR } from './embedded-postgres.ts';

/**
 * How another process (`npm run backup`) connects to the embedded PostgreSQL that a running
 * server started on `dataDir`: its unix socket inside the cluster directory, as the cluster's
 * superuser (trust authentication on that socket; nothing listens on TCP).
 */
export async function embeddedConnection(
  dataDir: string,
): Promise<pg.ClientConfig> {
  return {
    host: join(realpathSync(dataDir), CLUSTER_DIR),
    user: 'postgres',
    database: 'postgres',
  };
}
