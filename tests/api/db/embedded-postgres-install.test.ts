import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config.ts';
import { unsafeForRoot } from '../../../src/server/db/data-dir-lock.ts';
import { openDatabase, openEmbedded } from '../../../src/server/db/open.ts';
import { embeddedConnection } from '../../../src/server/db/embedded-connection.ts';
import {
  cannotRunPostgres,
  CLUSTER_DIR,
  clusterDirOf,
  CLUSTER_USER,
  LOG_FILE,
  PASSWORD_FILE,
  postgresProcesses,
  relocatedHome,
  RELOCATED_ROOT,
} from '../../../src/server/db/embedded-postgres.ts';
import { ADMIN } from '../../support/admin.ts';
import { WORKER_ENTRY } from '../../support/fleet.ts';
import { scratchDatabase } from '../../support/scratch-database.ts';
import { createClient, giveCredit, registerUser } from '../../support/seed.ts';
import {
  freePort,
  migratedDataDir,
  spawnServer,
  stopServer,
  tempDataDir,
  type SpawnedServer,
} from '../../support/spawn-server.ts';

/**
 * CONTRACT.md "Running it in production", "Where it runs" (issue 29): `npm start` runs as root
 * with the checkout in a 0700 folder (as root's home is), as a normal user with spaces in the
 * path and a relative DATA_DIR; as root the cluster runs as a system user of its own, takes
 * connections only with the password kept in DATA_DIR, follows no link planted there, widens no
 * folder's permissions, and refuses a DATA_DIR another user could change, in one message.
 *
 * What makes it fail: the cluster run as DATA_DIR's owner, `postgres` or `nobody`; trust
 * authentication (a connection without the password gets in); initdb or postgres spawned where
 * the cluster's user cannot reach them (EACCES, "could not access directory"); the log opened
 * through a planted link (the root-only file grows); a 0700 folder made 0701; a raw system error
 * instead of the message.
 */
const skipReason = await cannotRunPostgres();
const asRoot = process.getuid?.() === 0;
const ROOT = resolve(import.meta.dirname, '../../..');
const SLOW = 180_000;

const children: ChildProcess[] = [];
const servers: SpawnedServer[] = [];
const dirs: string[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await stopServer(server, 'SIGKILL');
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
    }
  }
  for (const dir of dataDirs.splice(0)) {
    const home = existsSync(dir) ? realpathSync(dir) : dir;
    for (const pid of postgresProcesses(clusterDirOf(home))) {
      process.kill(pid, 'SIGKILL');
    }
    rmSync(relocatedHome(home), { recursive: true, force: true });
  }
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A copy of what `npm start` needs of the checkout in `into`: hard links (a second of work), else a copy. */
function copyCheckout(into: string): void {
  mkdirSync(into, { recursive: true });
  const parts = [
    'src',
    'scripts',
    'migrations',
    'package.json',
    'node_modules',
  ];
  const sources = parts.map((part) => join(ROOT, part));
  const linked = spawnSync('cp', ['-al', ...sources, `${into}/`]);
  if (linked.status !== 0) {
    const copied = spawnSync('cp', ['-a', ...sources, `${into}/`], {
      encoding: 'utf8',
    });
    if (copied.status !== 0) throw new Error(`cp failed: ${copied.stderr}`);
  }
}

interface Started {
  url: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `node scripts/start.ts` of `checkout` (npm start's command) from the folder `cwd`, as `uid`
 * when given; resolves once /api/health answers.
 */
async function npmStart(
  checkout: string,
  cwd: string,
  env: Record<string, string>,
  user?: { uid: number; gid: number },
): Promise<Started> {
  const port = String(await freePort());
  const node = join(checkout, 'node_modules/.bin/node');
  const child = spawn(node, [join(checkout, 'scripts/start.ts')], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOST: '127.0.0.1',
      PORT: port,
      LOG_LEVEL: 'warn',
      // An operator's own build: start.ts does not build the console.
      WEB_DIR: join(checkout, 'no-console'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  children.push(child);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
  }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) {
          throw new Error(`exited before ready:\n${output}`);
        }
        return (await fetch(`${url}/api/health`).catch(() => null))?.status;
      },
      { timeout: 120_000, interval: 200 },
    )
    .toBe(200);
  return { url, child, output: () => output, exited };
}

/** A customer who sent one SMS: the server serves and writes. */
async function oneSend(url: string) {
  const owner = await registerUser(url);
  const client = await createClient(owner.http);
  await giveCredit(url, client.id, 1);
  const sent = await owner.http.post(`/api/clients/${client.id}/messages/sms`, {
    sender: 'Shop',
    recipient: '447700900123',
    body: 'Hello',
  });
  expect(sent.status).toBe(201);
}

/** Uid of a running process (its real uid, /proc/PID/status). */
function uidOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Uid:'));
  return Number(line!.split(/\s+/)[1]);
}

function userIds(name: string): { uid: number; gid: number } | undefined {
  const found = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  if (found.status !== 0) return undefined;
  const fields = found.stdout.split(':');
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/** What a connection to the cluster with `config` says: 'ok', or the error's code and text. */
async function tryConnect(config: pg.ClientConfig): Promise<string> {
  const client = new pg.Client(config);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return 'ok';
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return `${code ?? ''} ${message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A connection attempt run as another local user (`postgres`, else `nobody`) to the cluster's
 * socket, without the password, as psql or any client would make it: 'ok' or its error.
 */
function connectAs(
  user: { uid: number; gid: number },
  host: string,
  port: number,
): string {
  const pgModule = join(ROOT, 'node_modules/pg');
  const script = `
    const pg = require(${JSON.stringify(pgModule)});
    const c = new pg.Client({ host: ${JSON.stringify(host)}, port: ${port}, user: 'postgres', database: 'postgres' });
    c.connect().then(() => c.query('SELECT 1')).then(() => console.log('ok'),
      (e) => console.log((e.code || '') + ' ' + e.message)).finally(() => c.end().catch(() => {}));`;
  // The test's node and pg may be out of that user's reach (a checkout in root's home): psql then.
  const viaNode = spawnSync(process.execPath, ['-e', script], {
    ...user,
    cwd: '/',
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (viaNode.status === 0 && viaNode.stdout.trim()) {
    return viaNode.stdout.trim();
  }
  const viaPsql = spawnSync(
    'psql',
    [
      '-h',
      host,
      '-p',
      String(port),
      '-U',
      'postgres',
      '-w',
      '-c',
      'SELECT 1',
      'postgres',
    ],
    { ...user, cwd: '/', encoding: 'utf8', timeout: 20_000 },
  );
  if (viaPsql.error) {
    throw new Error(`neither node nor psql ran as uid ${user.uid}`);
  }
  return viaPsql.status === 0 ? 'ok' : viaPsql.stderr.trim();
}

const mode = (path: string) => lstatSync(path).mode & 0o7777;

describe.skipIf(skipReason !== undefined)(
  `npm start wherever it is run${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    it.skipIf(!asRoot)(
      `as root with the checkout in a 0700 folder, a path with spaces and the default DATA_DIR${asRoot ? '' : ' (skipped: needs root)'}`,
      async () => {
        // Under the checkout's own .tmp: the same filesystem, so the copy is hard links; unless
        // the checkout is not root's alone (as root the server would refuse DATA_DIR there).
        mkdirSync(join(ROOT, '.tmp'), { recursive: true });
        let home = mkdtempSync(join(ROOT, '.tmp', 'root-home-'));
        dirs.push(home);
        if (unsafeForRoot(home))
          home = mkdtempSync(join(tmpdir(), 'root-home-'));
        dirs.push(home);
        expect(mode(home)).toBe(0o700);
        const checkout = join(home, 'check out');
        copyCheckout(checkout);
        const dataDir = join(checkout, 'data');
        dataDirs.push(dataDir);

        const server = await npmStart(checkout, checkout, {});
        await oneSend(server.url);
        const real = realpathSync(dataDir);
        const cluster = join(relocatedHome(real), CLUSTER_DIR);
        // The first lines say where the cluster and the binaries are, and why.
        expect(server.output()).toContain(
          `embedded PostgreSQL: cluster in ${cluster}, not in DATA_DIR: the user ${CLUSTER_USER} cannot reach ${real}`,
        );
        expect(server.output()).toMatch(
          new RegExp(`binaries copied to ${RELOCATED_ROOT}/binaries-[0-9a-f]+`),
        );
        expect(existsSync(join(real, CLUSTER_DIR))).toBe(false);

        // Run by its own system user, not postgres, nobody or DATA_DIR's owner.
        const user = userIds(CLUSTER_USER)!;
        expect(user.uid).not.toBe(0);
        const [postmaster] = postgresProcesses(cluster);
        expect(postmaster).toBeDefined();
        expect(uidOf(postmaster!)).toBe(user.uid);
        for (const other of ['postgres', 'nobody']) {
          expect(userIds(other)?.uid).not.toBe(user.uid);
        }
        // Its files that user's alone; the log and the password root's alone.
        const clusterStat = lstatSync(cluster);
        expect(clusterStat.uid).toBe(user.uid);
        expect(mode(cluster)).toBe(0o700);
        for (const file of [LOG_FILE, PASSWORD_FILE]) {
          const stat = lstatSync(join(real, file));
          expect(stat.isFile()).toBe(true);
          expect(stat.uid).toBe(0);
          expect(stat.mode & 0o777).toBe(0o600);
        }
        // No folder of the operator's was opened up.
        expect(mode(home)).toBe(0o700);

        // Another tool connects as the server does: the socket, the password.
        const connection = await embeddedConnection(dataDir);
        expect(connection.host).toBe(cluster);
        expect(await tryConnect(connection)).toBe('ok');

        expect(await stopServer(server)).toEqual({ code: 0, signal: null });
        expect(postgresProcesses(cluster)).toEqual([]);
        // And again, on the same cluster: the data is there.
        const again = await npmStart(checkout, checkout, {});
        expect(again.output()).not.toContain('created the system user');
        expect(postgresProcesses(cluster)).toHaveLength(1);
        const admin = await fetch(`${again.url}/api/ready`);
        expect(admin.status).toBe(200);
      },
      SLOW,
    );

    it.skipIf(!asRoot)(
      `as root: a planted link is not followed, the password is required, other users are kept out, a 0700 DATA_DIR stays 0700${asRoot ? '' : ' (skipped: needs root)'}`,
      async () => {
        const dataDir = realpathSync(tempDataDir('attack'));
        dataDirs.push(dataDir);
        expect(mode(dataDir)).toBe(0o700);
        // A root-only file, and a link to it where the server writes its log.
        const secret = join(realpathSync(tempDataDir('secret')), 'secret');
        writeFileSync(secret, 'root only\n', { mode: 0o600 });
        symlinkSync(secret, join(dataDir, LOG_FILE));

        const server = await spawnServer(
          {
            DATA_DIR: dataDir,
            DATABASE_ENGINE: 'postgres',
            ADMIN_EMAIL: ADMIN.email,
            ADMIN_PASSWORD: ADMIN.password,
          },
          120_000,
        );
        servers.push(server);
        await oneSend(server.url);
        expect(readFileSync(secret, 'utf8')).toBe('root only\n');
        const log = lstatSync(join(dataDir, LOG_FILE));
        expect(log.isFile()).toBe(true);
        expect(log.mode & 0o777).toBe(0o600);
        expect(server.output()).toContain("was not the server's own file");
        expect(mode(dataDir)).toBe(0o700);

        const connection = await embeddedConnection(dataDir);
        const { host, port } = connection as { host: string; port: number };
        // Root itself, without the password or with a wrong one: refused.
        expect(
          await tryConnect({ ...connection, password: 'not-the-password' }),
        ).toMatch(/^28P01 password authentication failed/);
        expect(
          await tryConnect({ ...connection, password: undefined }),
        ).not.toBe('ok');
        // The cluster accepts scram passwords on its socket only.
        const client = new pg.Client(connection);
        await client.connect();
        try {
          const { rows } = await client.query<{ type: string; method: string }>(
            'SELECT type, auth_method AS method FROM pg_hba_file_rules',
          );
          expect(rows.length).toBeGreaterThan(0);
          for (const rule of rows) {
            expect(rule.method).toBe(
              rule.type === 'local' ? 'scram-sha-256' : 'reject',
            );
          }
        } finally {
          await client.end();
        }
        // Another local account (the shared `postgres` one, else `nobody`) cannot even reach it.
        const other = userIds('postgres') ?? userIds('nobody')!;
        expect(connectAs(other, host, port)).toMatch(
          /EACCES|Permission denied|permission denied/,
        );
      },
      SLOW,
    );

    it.skipIf(!asRoot)(
      `as root refuses, in one message, a DATA_DIR another user made or can write${asRoot ? '' : ' (skipped: needs root)'}`,
      async () => {
        const nobody = userIds('nobody')!;
        const theirs = tempDataDir('theirs');
        chownSync(theirs, nobody.uid, nobody.gid);
        const open = tempDataDir('open');
        chmodSync(open, 0o777);
        for (const [dir, why] of [
          [
            theirs,
            /DATA_DIR \S+ belongs to the user nobody \(uid \d+\), not root/,
          ],
          [open, /DATA_DIR \S+ can be written by other users \(mode 0777\)/],
        ] as const) {
          for (const engine of ['', 'pglite']) {
            const server = await spawnServer({
              DATA_DIR: dir,
              DATABASE_ENGINE: engine,
            }).then(
              () => {
                throw new Error('started');
              },
              (error: Error) => error.message,
            );
            expect(server).toMatch(why);
            expect(server).toContain('Ways out:');
            expect(server).toContain('DATABASE_URL');
            // One message: no stack, no raw system error.
            expect(server).not.toMatch(/\n\s+at /);
            // Nothing written into it.
            expect(readdirSync(dir)).toEqual([]);
          }
        }
        expect(existsSync(relocatedHome(realpathSync(theirs)))).toBe(false);
      },
      60_000,
    );

    it.skipIf(!asRoot)(
      `as root refuses a cluster another user owns (an older release's), saying how to hand it over${asRoot ? '' : ' (skipped: needs root)'}`,
      async () => {
        const dataDir = realpathSync(tempDataDir('older'));
        dataDirs.push(dataDir);
        // Within console-db's reach: the cluster is made in DATA_DIR.
        chmodSync(dataDir, 0o755);
        const env = {
          DATA_DIR: dataDir,
          DATABASE_ENGINE: 'postgres',
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
        };
        await stopServer(await spawnServer(env, 120_000));
        const cluster = join(dataDir, CLUSTER_DIR);
        // As an older release left it: the cluster run as the shared `nobody` account.
        const nobody = userIds('nobody')!;
        spawnSync('chown', ['-R', `${nobody.uid}:${nobody.gid}`, cluster]);
        const refused = await spawnServer(env, 60_000).then(
          () => 'started',
          (error: Error) => error.message,
        );
        expect(refused).toContain(
          `${cluster} belongs to uid ${nobody.uid}, not to ${CLUSTER_USER}`,
        );
        expect(refused).toContain(`chown -R ${CLUSTER_USER}: ${cluster}`);
        expect(refused).toContain('Ways out:');
        expect(refused).not.toMatch(/\n\s+at /);
        expect(postgresProcesses(cluster)).toEqual([]);
      },
      SLOW,
    );

    it(
      asRoot
        ? 'as root a DATA_DIR too long for a unix socket still starts: its cluster is kept elsewhere'
        : 'a DATA_DIR too long for a unix socket stops the start with one message and the ways out',
      async () => {
        const dataDir = join(
          realpathSync(tempDataDir('long')),
          'a folder name long enough to pass the hundred and seven bytes of a unix socket path',
        );
        dataDirs.push(dataDir);
        const env = {
          DATA_DIR: dataDir,
          DATABASE_ENGINE: 'postgres',
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
        };
        if (asRoot) {
          const server = await spawnServer(env, 120_000);
          servers.push(server);
          await oneSend(server.url);
          expect(clusterDirOf(dataDir)).toBe(
            join(relocatedHome(dataDir), CLUSTER_DIR),
          );
          return;
        }
        const refused = await spawnServer(env, 60_000).then(
          () => 'started',
          (error: Error) => error.message,
        );
        expect(refused).toMatch(
          /Cannot start: the embedded PostgreSQL cannot run: DATA_DIR \S.* is too long for PostgreSQL's socket: at most \d+ characters\. Ways out: set DATA_DIR=/,
        );
        expect(refused).not.toMatch(/\n\s+at /);
      },
      SLOW,
    );

    it(
      'as a normal user with spaces in the path and a relative DATA_DIR' +
        (asRoot ? ' (as root: run as nobody)' : ''),
      async () => {
        const top = mkdtempSync(join(tmpdir(), 'console-user-'));
        dirs.push(top);
        chmodSync(top, 0o755);
        const checkout = join(top, 'check out');
        copyCheckout(checkout);
        const user = asRoot ? userIds('nobody')! : undefined;
        const cwd = join(top, 'home with spaces');
        mkdirSync(cwd, { mode: 0o700 });
        if (user) chownSync(cwd, user.uid, user.gid);
        const dataDir = join(cwd, 'data dir');
        dataDirs.push(dataDir);

        const server = await npmStart(
          checkout,
          cwd,
          { DATA_DIR: 'data dir', DATABASE_ENGINE: '' },
          user,
        );
        await oneSend(server.url);
        const cluster = join(dataDir, CLUSTER_DIR);
        const [postmaster] = postgresProcesses(cluster);
        expect(postmaster).toBeDefined();
        expect(uidOf(postmaster!)).toBe(user?.uid ?? process.getuid!());
        const password = statSync(join(dataDir, PASSWORD_FILE));
        expect(password.mode & 0o777).toBe(0o600);
        expect(password.uid).toBe(user?.uid ?? process.getuid!());
        expect(mode(cwd)).toBe(0o700);
        expect(await stopServer(server)).toEqual({ code: 0, signal: null });
        expect(postgresProcesses(cluster)).toEqual([]);
      },
      SLOW,
    );
  },
);

describe.skipIf(skipReason !== undefined)(
  '`npm run worker`’s listener (WORKER_PORT)',
  () => {
    it(
      "applies the API's address rules (TRUST_PROXY: one hop) and its header timeout",
      async () => {
        const dataDir = realpathSync(tempDataDir('worker'));
        dataDirs.push(dataDir);
        const server = await spawnServer(
          {
            DATA_DIR: dataDir,
            DATABASE_ENGINE: 'postgres',
          },
          120_000,
        );
        servers.push(server);
        // The worker connects to the running embedded cluster, as another tool would.
        const connection = await embeddedConnection(dataDir);
        const url =
          `postgres://postgres:${encodeURIComponent(connection.password as string)}@` +
          `${encodeURIComponent(connection.host!)}:${connection.port}/postgres`;
        const port = String(await freePort());
        const worker = await spawnServer(
          {
            DATABASE_URL: url,
            DELIVERY_WORKERS: '1',
            WORKER_PORT: port,
            PORT: port, // where spawnServer waits for /api/health
            TRUST_PROXY: 'true',
            HTTP_HEADERS_TIMEOUT_MS: '1000',
            HTTP_REQUEST_TIMEOUT_MS: '2000',
          },
          60_000,
          WORKER_ENTRY,
        );
        servers.push(worker);
        const metrics = (forwarded?: string) =>
          fetch(`${worker.url}/metrics`, {
            headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
          }).then((answer) => answer.status);
        expect(await metrics()).toBe(200);
        // The proxy (the loopback peer) appended the client's address: that one decides.
        expect(await metrics('203.0.113.9, 127.0.0.1')).toBe(200);
        // A client's own claim to be loopback, before the hop the proxy added, is not believed.
        expect(await metrics('127.0.0.1, 203.0.113.9')).toBe(403);
        expect(await metrics('127.0.0.1, 10.0.0.1, 203.0.113.9')).toBe(403);

        // A request whose headers never end is closed after the header timeout.
        const socket = connect({ host: '127.0.0.1', port: Number(port) });
        socket.on('error', () => undefined);
        socket.resume();
        const opened = Date.now();
        let closedAt: number | undefined;
        socket.once('close', () => (closedAt = Date.now()));
        socket.once('connect', () =>
          socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\n'),
        );
        await expect
          .poll(() => closedAt, { timeout: 8_000, interval: 100 })
          .toBeDefined();
        expect(closedAt! - opened).toBeLessThan(6_000);
        expect(await metrics()).toBe(200);
      },
      SLOW,
    );
  },
);

describe('db.engine: which engine and where, for GET /api/version', () => {
  it.skipIf(skipReason !== undefined)(
    'names the embedded PostgreSQL and its cluster folder (as root, its relocated home)',
    async () => {
      const dataDir = realpathSync(tempDataDir('engine'));
      dataDirs.push(dataDir);
      const db = await openEmbedded(
        loadConfig({ DATA_DIR: dataDir, DATABASE_ENGINE: 'postgres' }),
      );
      try {
        expect(db.engine).toEqual({
          kind: 'postgres-embedded',
          where: clusterDirOf(dataDir),
        });
        expect(db.engine!.where).toBe(
          asRoot
            ? join(relocatedHome(dataDir), CLUSTER_DIR)
            : join(dataDir, CLUSTER_DIR),
        );
      } finally {
        await db.close();
      }
    },
    SLOW,
  );

  it('names PGlite and DATABASE_URL’s server without its credentials', async () => {
    // A migrated PGlite folder reopens in about a second; a new one takes PGlite's initdb.
    const dataDir = await migratedDataDir('engine-lite');
    const embedded = await openEmbedded(
      loadConfig({ DATA_DIR: dataDir, DATABASE_ENGINE: 'pglite' }),
    );
    try {
      expect(embedded.engine).toEqual({
        kind: 'pglite',
        where: join(dataDir, 'pgdata'),
      });
    } finally {
      await embedded.close();
    }
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) return; // the CI's second pass: a PostgreSQL server
    const scratch = await scratchDatabase(serverUrl, 'engine');
    const url = new URL(scratch.url);
    url.password = 'secret-not-shown';
    const remote = await openDatabase(
      loadConfig({ DATABASE_URL: url.toString() }),
    ).catch(() => openDatabase(loadConfig({ DATABASE_URL: scratch.url })));
    try {
      expect(remote.engine).toEqual({
        kind: 'postgres',
        where: `${url.host}${url.pathname}`,
      });
      expect(JSON.stringify(remote.engine)).not.toContain('secret');
    } finally {
      await remote.close();
      await scratch.drop();
    }
  }, 60_000);
});
