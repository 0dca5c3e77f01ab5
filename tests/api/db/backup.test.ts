// @also-on-pglite: without TEST_DATABASE_URL (this pass) it backs up and restores the embedded PostgreSQL of DATA_DIR, the default engine: its socket, password, lock and relocation as root.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { verifyBackup } from '../../../src/server/backup/backup-file.ts';
import { BACKUP_FILE } from '../../../src/server/backup/schedule.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { openPostgres } from '../../../src/server/db/client.ts';
import { embeddedConnection } from '../../../src/server/db/embedded-connection.ts';
import { migrate } from '../../../src/server/db/migrate.ts';
import { openEmbedded } from '../../../src/server/db/open.ts';
import {
  cannotRunPostgres,
  CLUSTER_DIR,
  postgresProcesses,
} from '../../../src/server/db/embedded-postgres.ts';
import { ADMIN } from '../../support/admin.ts';
import { onPostgres } from '../../support/engine.ts';
import { eventually } from '../../support/eventually.ts';
import { spawnFleet } from '../../support/fleet.ts';
import { scratchDatabase } from '../../support/scratch-database.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../support/seed.ts';
import {
  launchServer,
  spawnServer,
  stopServer,
  tempDataDir,
  type SpawnedServer,
} from '../../support/spawn-server.ts';

/**
 * Backups (CONTRACT.md "Running it in production", issue 29 part 2), through the real scripts
 * and servers: on the embedded PostgreSQL (DATA_DIR), or on the PostgreSQL of TEST_DATABASE_URL
 * (the CI's second pass) when set.
 *
 * What makes it fail: a backup that is not one snapshot (a send acknowledged before it began is
 * missing, or the ledger does not balance after a restore), a server that stops serving during a
 * backup, a restore that writes into a non-empty place or from a damaged file (or leaves the
 * target changed when it refuses), a scheduled backup that is not taken, not pruned, prunes files
 * that are not its own, or is not reported in /metrics and on the Operations screen.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const serverUrl = process.env.TEST_DATABASE_URL;
const skipReason = serverUrl ? undefined : await cannotRunPostgres();
const SLOW = 240_000;

/** Where a database lives: a DATA_DIR of the embedded engine, or a database on TEST_DATABASE_URL. */
interface Place {
  env: Record<string, string>;
  dir?: string;
  url?: string;
  /** Tables, views and sequences outside PostgreSQL's own schemas (0: empty). */
  relations(): Promise<number>;
  drop(): Promise<void>;
}

const places: Place[] = [];
const servers: SpawnedServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await stopServer(server);
});
afterAll(async () => {
  for (const place of places.splice(0)) await place.drop();
});

async function countRelations(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      `SELECT count(*) AS count FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
          AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg\\_%'`,
    );
    return Number(rows[0]?.count);
  } finally {
    await client.end();
  }
}

async function newPlace(): Promise<Place> {
  if (serverUrl) {
    const database = await scratchDatabase(serverUrl, 'backup');
    const place: Place = {
      env: { DATABASE_URL: database.url },
      url: database.url,
      relations: () => countRelations(database.url),
      drop: () => database.drop(),
    };
    places.push(place);
    return place;
  }
  const dir = realpathSync(tempDataDir('backup'));
  const place: Place = {
    env: { DATA_DIR: dir, DATABASE_ENGINE: 'postgres' },
    dir,
    relations: async () => {
      throw new Error('an embedded place is checked by its files');
    },
    drop: async () => {
      for (const pid of postgresProcesses(join(dir, CLUSTER_DIR))) {
        process.kill(pid, 'SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  places.push(place);
  return place;
}

async function startOn(
  place: Place,
  env: Record<string, string> = {},
): Promise<SpawnedServer> {
  const server = await spawnServer(
    {
      ...place.env,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    120_000,
  );
  servers.push(server);
  return server;
}

interface Run {
  code: number | null;
  output: string;
}

/** `node scripts/<name>.ts ...args` as `npm run <name>` runs it, with only `env` set. */
function runScript(
  name: string,
  args: string[],
  env: Record<string, string>,
): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'scripts', `${name}.ts`), ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.once('error', fail);
    child.once('exit', (code) => done({ code, output }));
  });
}

/** Sends from `clients` concurrently until stopped; each acknowledged send with when it was. */
function sendLoad(url: string, client: { id: string; secret: string }) {
  const acks: { id: string; at: number }[] = [];
  let stopped = false;
  const http = clientHttp(url, client);
  const worker = async () => {
    while (!stopped) {
      const sent = await http.post(`/api/clients/${client.id}/messages/sms`, {
        sender: 'Shop',
        recipient: '447700900123',
        body: 'Hello from before the backup',
      });
      if (sent.status === 201) acks.push({ id: sent.body.id, at: Date.now() });
      else if (sent.status !== 429) {
        throw new Error(`send: ${sent.status} ${JSON.stringify(sent.body)}`);
      }
    }
  };
  const running = Promise.all([worker(), worker(), worker()]);
  return {
    acks,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

let backupFile: string | undefined;

describe.skipIf(skipReason !== undefined)('npm run backup and restore', () => {
  it(
    'backs up while the server keeps accepting sends; the restore holds every send acknowledged before, balances, and serves',
    async () => {
      const source = await newPlace();
      const server = await startOn(source);
      const owner = await registerUser(server.url);
      const client = await createClient(owner.http);
      await giveCredit(server.url, client.id, 10_000);
      const load = sendLoad(server.url, client);
      await eventually(
        () => load.acks.length,
        (n) => n >= 30,
        {
          what: '30 sends',
          timeout: 60_000,
        },
      );
      const backupDir = tempDataDir('backup-files');
      const file = join(backupDir, 'one.backup');
      const began = Date.now();
      const backup = await runScript('backup', [file], source.env);
      const ended = Date.now();
      // Sends go on for a moment after it too: the server is still fine.
      const total = load.acks.length;
      await eventually(
        () => load.acks.length,
        (n) => n > total,
        {
          what: 'a send after the backup',
        },
      );
      await load.stop();
      expect(backup.output).toMatch(/written to/);
      expect(backup.code).toBe(0);
      const during = load.acks.filter((a) => a.at > began && a.at < ended);
      expect(during.length).toBeGreaterThan(0);
      const before = load.acks.filter((a) => a.at < began);
      expect(before.length).toBeGreaterThanOrEqual(30);
      expect(readdirSync(backupDir)).toEqual(['one.backup']); // no temporary file left
      backupFile = file;

      const target = await newPlace();
      const restore = await runScript('restore', [file], target.env);
      expect(restore.output).toMatch(/restored/);
      expect(restore.code).toBe(0);
      const verified = await runScript('ledger-verify', [], target.env);
      expect(verified.output).toMatch(/ledger verified/);
      expect(verified.code).toBe(0);

      const restored = await startOn(target);
      const http = clientHttp(restored.url, client);
      for (const ack of before) {
        const message = await http.get(
          `/api/clients/${client.id}/messages/${ack.id}`,
        );
        expect(message.status, ack.id).toBe(200);
      }
      // Those still queued at the backup are delivered by the restored server: the job queue
      // was in the backup too.
      for (const ack of before) {
        await eventually(
          async () =>
            (await http.get(`/api/clients/${client.id}/messages/${ack.id}`))
              .body.state,
          (state) => state === 'DELIVERED',
          { what: `message ${ack.id} delivered`, timeout: 90_000 },
        );
      }
      // The restored server accepts sends of its own.
      const sent = await http.post(`/api/clients/${client.id}/messages/sms`, {
        sender: 'Shop',
        recipient: '447700900123',
        body: 'Hello after the restore',
      });
      expect(sent.status).toBe(201);

      if (source.dir) {
        // No server on DATA_DIR: the script starts the cluster itself, and stops it again.
        await stopServer(server);
        const again = await runScript(
          'backup',
          [join(backupDir, 'stopped.backup')],
          source.env,
        );
        expect(again.output).toMatch(/written to/);
        expect(again.code).toBe(0);
        expect(postgresProcesses(join(source.dir, CLUSTER_DIR))).toEqual([]);
        const header = (await verifyBackup(join(backupDir, 'stopped.backup')))
          .header;
        const messages = header.tables.find((t) => t.name === 'messages');
        expect(messages?.rows).toBeGreaterThan(before.length);
      }
    },
    SLOW,
  );

  it(
    'refuses a target that is not empty, and a damaged or truncated file, leaving the target as it was',
    async () => {
      expect(backupFile).toBeDefined();
      const file = backupFile!;
      // A non-empty target.
      const used = await newPlace();
      if (used.dir) {
        writeFileSync(join(used.dir, 'notes.txt'), 'mine');
      } else {
        await stopServer(await startOn(used)); // migrated: tables in it
      }
      const before = used.dir ? readdirSync(used.dir) : await used.relations();
      const refused = await runScript('restore', [file], used.env);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/restore refused: .* is not empty/);
      expect(used.dir ? readdirSync(used.dir) : await used.relations()).toEqual(
        before,
      );

      // A flipped byte in the middle, and a file cut short.
      const dir = tempDataDir('backup-damaged');
      const flipped = join(dir, 'flipped.backup');
      copyFileSync(file, flipped);
      const bytes = readFileSync(flipped);
      const middle = Math.floor(bytes.length / 2);
      bytes[middle] = bytes[middle]! ^ 0x01;
      writeFileSync(flipped, bytes);
      const truncated = join(dir, 'truncated.backup');
      copyFileSync(file, truncated);
      truncateSync(truncated, Math.floor(statSync(file).size * 0.7));
      for (const damaged of [flipped, truncated]) {
        const target = await newPlace();
        const run = await runScript('restore', [damaged], target.env);
        expect(run.code, run.output).toBe(1);
        expect(run.output).toMatch(/not a complete backup/);
        if (target.dir) expect(readdirSync(target.dir)).toEqual([]);
        else expect(await target.relations()).toBe(0);
      }
    },
    SLOW,
  );
});

describe.skipIf(skipReason !== undefined)(
  'scheduled backups (BACKUP_DIR)',
  () => {
    it(
      'takes them on its own, keeps the newest BACKUP_KEEP of its own files only, and reports the last in /metrics and on the Operations screen',
      async () => {
        const place = await newPlace();
        const dir = tempDataDir('backup-dir');
        // Not ours: retention leaves them; a temporary file left by a killed node: removed.
        writeFileSync(join(dir, 'notes.txt'), 'mine');
        writeFileSync(join(dir, 'console-20200101T000000000Z.backup.old'), 'x');
        const partial = 'console-20200101T000000000Z.backup.partial-1';
        writeFileSync(join(dir, partial), 'half');
        const server = await startOn(place, {
          BACKUP_DIR: dir,
          BACKUP_INTERVAL_HOURS: '0.0003', // about a second
          BACKUP_KEEP: '2',
        });
        const seen = new Set<string>();
        const ours = () => readdirSync(dir).filter((n) => BACKUP_FILE.test(n));
        await eventually(
          () => {
            for (const name of ours()) seen.add(name);
            return seen.size;
          },
          (n) => n >= 4,
          { what: 'four scheduled backups', timeout: 120_000, interval: 100 },
        );
        const kept = await eventually(ours, (names) => names.length === 2, {
          what: 'retention down to 2',
          timeout: 30_000,
        });
        // The newest two of those written.
        for (const name of kept) seen.add(name);
        expect([...kept].sort()).toEqual([...seen].sort().slice(-2));
        expect(readdirSync(dir)).toContain('notes.txt');
        expect(readdirSync(dir)).toContain(
          'console-20200101T000000000Z.backup.old',
        );
        expect(readdirSync(dir)).not.toContain(partial);
        // Each one a whole backup.
        const header = (await verifyBackup(join(dir, kept[0]!))).header;
        expect(header.tables.some((t) => t.name === 'backups')).toBe(true);

        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        const gauge = /^backup_last_success_timestamp_seconds (\S+)$/m.exec(
          metrics,
        );
        expect(gauge).not.toBeNull();
        const at = Number(gauge![1]) * 1000;
        expect(Math.abs(Date.now() - at)).toBeLessThan(120_000);

        const operations = await adminHttp(server.url).get(
          '/api/admin/operations',
        );
        expect(operations.status).toBe(200);
        expect(operations.body.backup.schedule).toEqual({
          intervalHours: 0.0003,
          keep: 2,
        });
        expect(
          Date.parse(operations.body.backup.lastSuccessAt),
        ).toBeGreaterThan(Date.now() - 120_000);
        expect(operations.body.backup.last).toMatchObject({
          kind: 'scheduled',
          ok: true,
          error: null,
        });
        expect(existsSync(dir)).toBe(true);
      },
      SLOW,
    );
  },
);

/** The database of `place` migrated with the migration files of `files` only (another release). */
async function migrateAs(place: Place, files: Record<string, string>) {
  const dir = tempDataDir('migrations');
  for (const [name, sql] of Object.entries(files))
    writeFileSync(join(dir, name), sql);
  const config = loadConfig({
    ...place.env,
    LOG_LEVEL: 'silent',
  });
  const db = place.url
    ? await openPostgres(place.url, 1)
    : await openEmbedded(config);
  try {
    await migrate(db, pathToFileURL(`${dir}/`));
  } finally {
    await db.close();
  }
}

const MIGRATIONS = join(ROOT, 'migrations');
const releaseFiles = (keep: (name: string) => boolean) =>
  Object.fromEntries(
    readdirSync(MIGRATIONS)
      .filter((name) => name.endsWith('.sql') && keep(name))
      .map((name) => [name, readFileSync(join(MIGRATIONS, name), 'utf8')]),
  );

describe.skipIf(skipReason !== undefined)('releases', () => {
  it(
    "restores an older release's backup, which this release's start then migrates forward",
    async () => {
      const older = await newPlace();
      const last = readdirSync(MIGRATIONS)
        .filter((name) => name.endsWith('.sql'))
        .sort()
        .at(-1)!;
      await migrateAs(
        older,
        releaseFiles((name) => name !== last),
      );
      const file = join(tempDataDir('backup-older'), 'older.backup');
      const backup = await runScript('backup', [file], older.env);
      expect(backup.code, backup.output).toBe(0);
      const header = (await verifyBackup(file)).header;
      expect(header.migrations.map((m) => m.name)).not.toContain(last);

      const target = await newPlace();
      const restore = await runScript('restore', [file], target.env);
      expect(restore.code, restore.output).toBe(0);
      const server = await startOn(target);
      expect(
        (await adminHttp(server.url).get('/api/admin/operations')).status,
      ).toBe(200);
      await stopServer(server);
      // The start applied the newest migration.
      const again = join(tempDataDir('backup-newer'), 'newer.backup');
      expect((await runScript('backup', [again], target.env)).code).toBe(0);
      expect(
        (await verifyBackup(again)).header.migrations.map((m) => m.name),
      ).toContain(last);
    },
    SLOW,
  );

  it(
    'refuses the backup of a newer release (a migration this one does not know), writing nothing',
    async () => {
      const newer = await newPlace();
      await migrateAs(newer, {
        ...releaseFiles(() => true),
        '999-future.sql': 'CREATE TABLE future_things (id int PRIMARY KEY);',
      });
      const file = join(tempDataDir('backup-future'), 'future.backup');
      expect((await runScript('backup', [file], newer.env)).code).toBe(0);
      const target = await newPlace();
      const restore = await runScript('restore', [file], target.env);
      expect(restore.code).toBe(1);
      expect(restore.output).toMatch(
        /newer release: its migration 999-future.sql is unknown/,
      );
      if (target.dir) expect(readdirSync(target.dir)).toEqual([]);
      else expect(await target.relations()).toBe(0);
    },
    SLOW,
  );
});

describe('BACKUP_DIR on PGlite', () => {
  it(
    'stops the start with a message: PGlite is backed up by copying DATA_DIR',
    async () => {
      const server = await launchServer({
        DATA_DIR: tempDataDir('backup-pglite'),
        DATABASE_ENGINE: 'pglite',
        BACKUP_DIR: tempDataDir('backup-pglite-dir'),
      });
      servers.push(server);
      const exit = await server.exited;
      expect(exit.code).toBe(1);
      expect(server.output()).toMatch(/BACKUP_DIR needs PostgreSQL/);
    },
    SLOW,
  );
});

/** `count` delivered messages of `clientId` written straight in SQL: a backup that takes a while. */
async function fill(place: Place, clientId: string, count: number) {
  const client = new pg.Client(
    place.url
      ? { connectionString: place.url }
      : await embeddedConnection(place.dir!),
  );
  await client.connect();
  try {
    await client.query(
      `INSERT INTO messages (client_id, user_id, sender, recipient, body, reference, state,
         encoding, segments, price, price_per_segment, currency, delivery_method, simulated,
         date_created, date_updated)
       SELECT c.id, c.user_id, 'Bench', '+442079460958', repeat('Your code is 123456. ', 5),
         'fill', 'DELIVERED', 'GSM-7', 1, 0, 0, b.currency, 'MELROSE_SMPP', true, now(), now()
       FROM clients c JOIN balances b ON b.client_id = c.id, generate_series(1, $2::int)
       WHERE c.id = $1`,
      [clientId, count],
    );
  } finally {
    await client.end();
  }
}

describe.skipIf(skipReason !== undefined)(
  'a node killed while backing up',
  () => {
    it(
      'leaves only a temporary file, never one that looks complete; the next backup removes it',
      async () => {
        const place = await newPlace();
        const seeding = await startOn(place);
        const owner = await registerUser(seeding.url);
        const client = await createClient(owner.http);
        await fill(place, client.id, 150_000);
        await stopServer(seeding);

        const dir = tempDataDir('backup-killed');
        const env = {
          ...place.env,
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
          BACKUP_DIR: dir,
        };
        // The first backup is due at once: the server is killed while it writes.
        const killed = await launchServer(env);
        servers.push(killed);
        const partial = await eventually(
          () => readdirSync(dir).find((n) => n.includes('.partial-')),
          (name) => name !== undefined,
          { what: 'a backup being written', timeout: 120_000, interval: 5 },
        );
        killed.child.kill('SIGKILL');
        await killed.exited;
        const left = readdirSync(dir);
        expect(left.filter((n) => BACKUP_FILE.test(n))).toEqual([]);
        expect(left).toContain(partial);

        const again = await startOn(place, { BACKUP_DIR: dir });
        const done = await eventually(
          () => readdirSync(dir),
          (names) =>
            names.some((n) => BACKUP_FILE.test(n)) &&
            !names.some((n) => n.includes('.partial-')),
          {
            what: 'a whole backup, and the temporary file gone',
            timeout: 120_000,
          },
        );
        const header = (
          await verifyBackup(
            join(
              dir,
              done.find((n) => BACKUP_FILE.test(n))!,
            ),
          )
        ).header;
        expect(header.tables.find((t) => t.name === 'messages')?.rows).toBe(
          150_000,
        );
        await stopServer(again);
      },
      SLOW,
    );
  },
);

describe.skipIf(!onPostgres)('scheduled backups on a fleet', () => {
  it(
    'one node at a time: the attempts of two nodes sharing BACKUP_DIR never overlap, and each file is whole',
    async () => {
      const dir = tempDataDir('backup-fleet');
      const fleet = await spawnFleet(2, {
        BACKUP_DIR: dir,
        BACKUP_INTERVAL_HOURS: '0.0002', // 0.72 s: both nodes look all the time
        BACKUP_KEEP: '50',
      });
      try {
        const db = new pg.Client({ connectionString: fleet.databaseUrl });
        await db.connect();
        try {
          const attempts = await eventually(
            async () =>
              (
                await db.query<{
                  started_at: Date;
                  finished_at: Date;
                  ok: boolean;
                }>(
                  `SELECT started_at, finished_at, ok FROM backups
                    WHERE kind = 'scheduled' ORDER BY started_at`,
                )
              ).rows,
            (rows) => rows.length >= 6,
            { what: 'six scheduled backups', timeout: 120_000, interval: 200 },
          );
          expect(attempts.every((a) => a.ok)).toBe(true);
          for (let i = 1; i < attempts.length; i++) {
            expect(attempts[i]!.started_at.getTime()).toBeGreaterThanOrEqual(
              attempts[i - 1]!.finished_at.getTime(),
            );
          }
        } finally {
          await db.end();
        }
        for (const name of readdirSync(dir).filter((n) =>
          BACKUP_FILE.test(n),
        )) {
          await verifyBackup(join(dir, name));
        }
      } finally {
        await fleet.close();
      }
    },
    SLOW,
  );
});
