import { resolve } from 'node:path';
import { ADMIN, freshDatabaseUrl } from './start-server.ts';
import { spawnServer, stopServer, type SpawnedServer } from './spawn-server.ts';

/** `npm run worker`'s entry, for launchServer and spawnServer. */
export const WORKER_ENTRY = resolve(
  import.meta.dirname,
  '../../src/server/worker.ts',
);

/** The settings that bind a node or a worker to a test SMSC (tests/support/smsc*.ts). */
export function smscBind(smsc: {
  host: string;
  port: number;
}): Record<string, string> {
  return {
    SMPP_HOST: smsc.host,
    SMPP_PORT: String(smsc.port),
    SMPP_SYSTEM_ID: 'test',
    SMPP_PASSWORD: 'secret',
  };
}

export interface Fleet {
  /** The nodes, each its own server process, all on one database. */
  nodes: SpawnedServer[];
  /** The database's URL, for tests that look at it directly. */
  databaseUrl: string;
  /** Stops every node, then drops the database. */
  close(): Promise<void>;
}

/**
 * `count` real server processes on one fresh database of the PostgreSQL at TEST_DATABASE_URL
 * (which must be set), with the tests' admin. The first migrates before the others start.
 */
export async function spawnFleet(
  count: number,
  env: Record<string, string> = {},
): Promise<Fleet> {
  const database = await freshDatabaseUrl();
  if (!database.url) throw new Error('spawnFleet needs TEST_DATABASE_URL');
  const nodeEnv = {
    DATABASE_URL: database.url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    REGISTER_LIMIT: '100000',
    ...env,
  };
  const nodes: SpawnedServer[] = [];
  const close = async () => {
    await Promise.all(nodes.map((node) => stopServer(node)));
    await database.drop();
  };
  try {
    for (let i = 0; i < count; i++) nodes.push(await spawnServer(nodeEnv));
  } catch (error) {
    await close();
    throw error;
  }
  return { nodes, databaseUrl: database.url, close };
}
