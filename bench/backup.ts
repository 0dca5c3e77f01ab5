/**
 * `node bench/backup.ts`: the two ways of an online backup of the embedded PostgreSQL compared on
 * one server holding BENCH_MESSAGES (200,000) delivered messages with their ledger rows:
 *
 * - logical: `npm run backup` (one snapshot, COPY of every table, gzip level 1), what ships;
 * - physical: pg_backup_start, a tar.gz (gzip -1) of the cluster directory, pg_backup_stop.
 *
 * For each: its time and size, and the accepted sends a second while it runs against the same
 * load without a backup (BENCH_CONNECTIONS, 20, sending as fast as answered), measured in the same
 * run, so that a shared machine's noise hits all three alike. Then the logical backup is restored
 * into a new DATA_DIR (time) and `npm run ledger:verify` checked on it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/open.ts';
import { CLUSTER_DIR } from '../src/server/db/embedded-postgres.ts';
import {
  fundedBenchClient,
  seconds,
  startBenchServer,
  type BenchServer,
} from './server.ts';
import { ROOT } from './spawn.ts';

const MESSAGES = seconds('BENCH_MESSAGES', 200_000);
const CONNECTIONS = seconds('BENCH_CONNECTIONS', 20);
const PRICE = '0.05';

async function prefill(
  running: BenchServer,
  clientId: string,
): Promise<BenchServer> {
  await running.stop();
  const db = await openDatabase(
    loadConfig({
      DATA_DIR: running.dataDir,
      DATABASE_ENGINE: 'postgres',
      LOG_LEVEL: 'silent',
    }),
  );
  try {
    await db.transaction(async (tx) => {
      await tx.query(
        `WITH sent AS (
           INSERT INTO messages (client_id, user_id, sender, recipient, body, reference, state,
             encoding, segments, price, price_per_segment, currency, delivery_method, simulated,
             date_created, date_updated)
           SELECT c.id, c.user_id, 'Bench', '+442079460958', 'Your verification code is 123456.',
             'prefill', 'DELIVERED', 'GSM-7', 1, $3::numeric, $3::numeric, b.currency,
             'MELROSE_SMPP', true, now() - ($2::int - i) * interval '1 ms', now()
           FROM clients c JOIN balances b ON b.client_id = c.id, generate_series(1, $2::int) i
           WHERE c.id = $1 AND b.id = $1
           RETURNING id, date_created)
         INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason,
           message_id, date_created)
         SELECT $1, $1, -$3::numeric,
           b.amount - $3::numeric * row_number() OVER (ORDER BY sent.date_created),
           'SMS', sent.id, sent.date_created
         FROM sent, balances b WHERE b.id = $1
         ORDER BY sent.date_created`,
        [clientId, MESSAGES, PRICE],
      );
      await tx.query(
        'UPDATE balances SET amount = amount - $2::numeric * $3::int WHERE id = $1',
        [clientId, PRICE, MESSAGES],
      );
    });
  } finally {
    await db.close();
  }
  return startBenchServer({ DATA_DIR: running.dataDir! });
}

/** Sends as fast as answered over CONNECTIONS connections; counts the 201s. */
function load(url: string, clientId: string, auth: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({
    sender: 'Bench',
    recipient: '447700900123',
    body: 'Hello during a backup',
  });
  let accepted = 0;
  let stopped = false;
  const one = () =>
    new Promise<void>((done) => {
      const req = request(
        {
          agent,
          hostname,
          port,
          method: 'POST',
          path: `/api/clients/${clientId}/messages/sms`,
          headers: {
            authorization: auth,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          if (res.statusCode === 201) accepted++;
          res.resume().on('end', done);
        },
      );
      req.on('error', () => done());
      req.end(body);
    });
  const workers = Array.from({ length: CONNECTIONS }, async () => {
    while (!stopped) await one();
  });
  return {
    count: () => accepted,
    async stop() {
      stopped = true;
      await Promise.all(workers);
      agent.destroy();
    },
  };
}

function run(command: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((done) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => done({ code, output }));
  });
}

/** Accepted sends a second while `work` runs. */
async function rateDuring(
  sends: ReturnType<typeof load>,
  work: () => Promise<unknown>,
): Promise<{ rate: number; seconds: number }> {
  const before = sends.count();
  const began = performance.now();
  await work();
  const took = (performance.now() - began) / 1000;
  return { rate: (sends.count() - before) / took, seconds: took };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server = await startBenchServer();
const { clientId, clientAuth } = await fundedBenchClient(server.url, '1000000');
let began = performance.now();
server = await prefill(server, clientId);
console.log(
  `prefilled ${MESSAGES} messages in ${((performance.now() - began) / 1000).toFixed(1)} s`,
);
const dataDir = server.dataDir!;
const cluster = join(dataDir, CLUSTER_DIR);
const out = mkdtempSync(join(tmpdir(), 'bench-backup-'));
const node = process.execPath;
const sends = load(server.url, clientId, clientAuth);
try {
  await sleep(2_000); // warm
  const logical = join(out, 'logical.backup');
  const logicalRun = await rateDuring(sends, async () => {
    const result = await run(node, ['scripts/backup.ts', logical], {
      DATA_DIR: dataDir,
    });
    if (result.code !== 0) throw new Error(result.output);
  });
  await sleep(1_000);
  const baseline = await rateDuring(sends, () =>
    sleep(logicalRun.seconds * 1000),
  );
  await sleep(1_000);
  const physical = join(out, 'physical.tar.gz');
  const physicalRun = await rateDuring(sends, async () => {
    const client = new pg.Client({
      connectionString: `postgres://postgres@${encodeURIComponent(cluster)}/postgres`,
    });
    await client.connect();
    await client.query("SELECT pg_backup_start('bench', true)");
    // tar warns (exit 1) about files written while it reads them: expected, WAL replays them.
    const tar = spawnSync(
      'tar',
      ['-I', 'gzip -1', '-cf', physical, '-C', cluster, '.'],
      {
        encoding: 'utf8',
      },
    );
    if (tar.status !== 0 && tar.status !== 1) throw new Error(tar.stderr);
    await client.query('SELECT * FROM pg_backup_stop(true)');
    await client.end();
  });
  await sleep(1_000);
  const baseline2 = await rateDuring(sends, () =>
    sleep(physicalRun.seconds * 1000),
  );
  await sends.stop();

  // Its own folder under the system's temporary one: as root the cluster's user must reach it.
  const restoreDir = mkdtempSync(join(tmpdir(), 'bench-restored-'));
  began = performance.now();
  const restored = await run(node, ['scripts/restore.ts', logical], {
    DATA_DIR: restoreDir,
  });
  const restoreSeconds = (performance.now() - began) / 1000;
  if (restored.code !== 0) throw new Error(restored.output);
  const verified = await run(node, ['scripts/ledger-verify.ts'], {
    DATA_DIR: restoreDir,
  });

  const mb = (file: string) => (statSync(file).size / 1e6).toFixed(1);
  const clusterMb = Number(
    spawnSync('du', ['-sm', cluster], { encoding: 'utf8' }).stdout.split(
      '\t',
    )[0],
  );
  console.log(`cluster on disk             ${clusterMb} MB`);
  console.log(
    `logical (npm run backup)    ${logicalRun.seconds.toFixed(1)} s, ${mb(logical)} MB, ` +
      `sends ${logicalRun.rate.toFixed(0)}/s vs ${baseline.rate.toFixed(0)}/s without = ` +
      `${((logicalRun.rate / baseline.rate) * 100).toFixed(0)} %`,
  );
  console.log(
    `physical (tar.gz of PGDATA) ${physicalRun.seconds.toFixed(1)} s, ${mb(physical)} MB, ` +
      `sends ${physicalRun.rate.toFixed(0)}/s vs ${baseline2.rate.toFixed(0)}/s without = ` +
      `${((physicalRun.rate / baseline2.rate) * 100).toFixed(0)} %`,
  );
  console.log(`restore of the logical one  ${restoreSeconds.toFixed(1)} s`);
  console.log(verified.output.trim());
  rmSync(restoreDir, { recursive: true, force: true });
} finally {
  await server.stop();
  rmSync(out, { recursive: true, force: true });
}
