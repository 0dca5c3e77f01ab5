import { httpClient, type HttpClient } from './http.ts';
import {
  createClient,
  defaultBalancePath,
  registerUser,
  type TestClient,
  type TestUser,
} from './seed.ts';
import {
  migratedDataDir,
  spawnServer,
  stopServer,
  type SpawnedServer,
} from './spawn-server.ts';
import { ADMIN, freshDatabaseUrl } from './start-server.ts';

/** Everything a kill-and-restart test started, stopped and dropped by `cleanUp`. */
export interface Restartables {
  servers: SpawnedServer[];
  databases: { drop(): Promise<void> }[];
}

/** Kills every server and drops every database a test file started (its afterAll). */
export async function cleanUp(started: Restartables): Promise<void> {
  for (const server of started.servers) await stopServer(server, 'SIGKILL');
  for (const database of started.databases) await database.drop();
}

export interface RestartableServer {
  /** The first server process, the one a test kills. */
  first: SpawnedServer;
  /** The customer who owns `client`, signed in on `first`. */
  owner: TestUser & { http: HttpClient };
  client: TestClient;
  /** The database's URL in the PostgreSQL pass (undefined on an embedded DATA_DIR). */
  databaseUrl: string | undefined;
  /** Starts another server on the same data (after the first was killed). */
  restart(): Promise<SpawnedServer>;
  /** A customer's HTTP client on another server. */
  ownerOn(server: SpawnedServer): HttpClient;
}

/**
 * A real server process on its own data: a fresh database of the PostgreSQL at
 * TEST_DATABASE_URL when set, else a migrated embedded DATA_DIR, so a test can SIGKILL it and
 * start another on the same data. It has the tests' admin and one customer whose client holds
 * `credit` of free credit.
 */
export async function restartableServer(
  tracked: Restartables,
  name: string,
  env: Record<string, string>,
  credit: number,
): Promise<RestartableServer> {
  const database = process.env.TEST_DATABASE_URL
    ? await freshDatabaseUrl()
    : undefined;
  if (database) tracked.databases.push(database);
  const serverEnv = {
    ...(database?.url
      ? { DATABASE_URL: database.url }
      : { DATA_DIR: await migratedDataDir(name) }),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...env,
  };
  const first = await spawnServer(serverEnv);
  tracked.servers.push(first);
  const owner = await registerUser(first.url);
  const client = await createClient(owner.http);
  const admin = httpClient(first.url, {
    username: ADMIN.email,
    password: ADMIN.password,
  });
  await admin.post(`${defaultBalancePath(client.id)}/freecredit`, {
    amount: credit,
  });
  return {
    first,
    owner,
    client,
    databaseUrl: database?.url,
    async restart() {
      const next = await spawnServer(serverEnv);
      tracked.servers.push(next);
      return next;
    },
    ownerOn(server) {
      return httpClient(server.url, {
        username: owner.email,
        password: owner.password,
      });
    },
  };
}
