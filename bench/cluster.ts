/**
 * `npm run bench:cluster` (issue 18): a fleet on a throwaway PostgreSQL cluster of its own
 * (tests/support/throwaway-postgres.ts, fsync off), real processes throughout. Prints:
 *
 * 1. accepted sends per second with one API node and with two (accept-only nodes,
 *    DELIVERY_WORKERS=0), the same autocannon client (two instances of half the connections
 *    each, both on node A or one per node) for the same duration, and the ratio;
 * 2. the time from a password change answered by node A to the old password's first refusal
 *    by node B, which had it cached (p50/p99 over CHANGES changes);
 * 3. the delivery takeover time after a worker's SIGKILL: from the kill, with jobs active at a
 *    slow SMSC, to every message final through a new worker.
 *
 * BENCH_SECONDS (10) and BENCH_CONNECTIONS (32) change the first part. About 2 minutes here.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  launchServer,
  spawnServer,
  stopServer,
  type SpawnedServer,
} from '../tests/support/spawn-server.ts';
import { smscBind, WORKER_ENTRY as WORKER } from '../tests/support/fleet.ts';
import { startSmscProcess } from '../tests/support/smsc-process.ts';
import { throwawayPostgres } from '../tests/support/throwaway-postgres.ts';
import {
  basicHeader,
  BENCH_ADMIN,
  call,
  expectStatus,
  fundedBenchClient,
  seconds,
} from './server.ts';

const DURATION = seconds('BENCH_SECONDS', 10);
const CONNECTIONS = seconds('BENCH_CONNECTIONS', 32);
const CHANGES = 100;
/** Users the password changes are spread over: each sees CHANGES / USERS failed sign-ins. */
const USERS = 10;
const TAKEOVER_MESSAGES = 100;

const cluster = await throwawayPostgres();
const processes: SpawnedServer[] = [];
const stopAll = () =>
  Promise.all(processes.splice(0).map((p) => stopServer(p, 'SIGKILL')));

/** A new database on the cluster, for one part of the run. */
async function database(): Promise<string> {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return url.toString();
}

/** An API node on `databaseUrl` (the first one on a database migrates it). */
async function node(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<string> {
  const started = await spawnServer(
    {
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      REGISTER_LIMIT: '100000',
      LOG_LEVEL: 'warn',
      ...env,
    },
    120_000,
  );
  processes.push(started);
  return started.url;
}

/** A client of a new customer with plenty of credit; answers its Basic header and id. */
async function fundedClient(url: string) {
  const { clientId, clientAuth } = await fundedBenchClient(url, '1000000');
  return { id: clientId, auth: clientAuth };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** Accepted sends a second over `targets`: one autocannon of half the connections on each. */
async function sendRate(
  targets: [string, string],
  client: { id: string; auth: string },
  duration: number,
): Promise<{ rate: number; refused: number }> {
  const results = await Promise.all(
    targets.map((url) =>
      autocannon({
        url: `${url}/api/clients/${client.id}/messages/sms`,
        method: 'POST',
        connections: CONNECTIONS / 2,
        duration,
        headers: {
          authorization: client.auth,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          sender: 'Bench',
          recipient: '+44 20 7946 0958',
          body: 'Your verification code is 123456.',
        }),
      }),
    ),
  );
  const accepted = results.reduce(
    (n, r) => n + (r.statusCodeStats['201']?.count ?? 0),
    0,
  );
  const refused = results.reduce((n, r) => n + r.non2xx + r.errors, 0);
  return { rate: accepted / duration, refused };
}

try {
  console.log(
    `bench:cluster — throwaway PostgreSQL (${new URL(cluster.url).host}), ` +
      `autocannon ${CONNECTIONS} connections, ${DURATION} s per measure`,
  );

  // 1. Accepted sends per second, one node then two, on one database; nodes only accept.
  const sends = await database();
  const a = await node(sends, { DELIVERY_WORKERS: '0', TRUST_PROXY: 'true' });
  const b = await node(sends, { DELIVERY_WORKERS: '0', TRUST_PROXY: 'true' });
  const client = await fundedClient(a);
  await sendRate([a, b], client, 2); // warm-up: JIT, pools, both nodes' credential caches
  const one = await sendRate([a, a], client, DURATION);
  const two = await sendRate([a, b], client, DURATION);
  console.log(
    `sends: 1 node ${one.rate.toFixed(0)}/s, 2 nodes ${two.rate.toFixed(0)}/s, ` +
      `ratio ${(two.rate / one.rate).toFixed(2)} (non-201 or errors: ${one.refused}, ${two.refused})`,
  );

  // 2. Password change on A → the old password refused on B, which had it cached. Each change
  // comes from its own address (X-Forwarded-For: the nodes trust the proxy), so the one refusal
  // each costs stays under the per-address and per-account failed sign-in limits.
  const users = await Promise.all(
    Array.from({ length: USERS }, async () => {
      const email = `cluster-${randomBytes(5).toString('hex')}@example.test`;
      const answer = await call(a, 'POST', '/api/register', {
        email,
        password: 'password-0',
        firstName: 'Bench',
        lastName: 'Cluster',
      });
      expectStatus(answer, 201, 'register');
      return { email, password: 'password-0' };
    }),
  );
  const asFrom = (address: string, user: string, password: string) => ({
    authorization: basicHeader(user, password),
    'x-forwarded-for': address,
  });
  const latencies: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const user = users[i % USERS]!;
    const address = `198.51.100.${1 + i}`;
    const old = asFrom(address, user.email, user.password);
    // B verifies the current password and caches it.
    const cached = await fetch(`${b}/api/users/me`, { headers: old });
    if (cached.status !== 200) throw new Error(`B answered ${cached.status}`);
    const next = `password-${i + 1}`;
    const changed = await fetch(`${a}/api/users/me/password`, {
      method: 'PUT',
      headers: { ...old, 'content-type': 'application/json' },
      body: JSON.stringify({
        currentPassword: user.password,
        newPassword: next,
      }),
    });
    if (!changed.ok) throw new Error(`change answered ${changed.status}`);
    const at = performance.now();
    user.password = next;
    for (;;) {
      const status = (await fetch(`${b}/api/users/me`, { headers: old }))
        .status;
      if (status === 401) break;
      if (status !== 200) throw new Error(`B answered ${status}`);
      if (performance.now() - at > 5_000) throw new Error('never refused');
    }
    latencies.push(performance.now() - at);
  }
  latencies.sort((x, y) => x - y);
  console.log(
    `revocation: password changed on A → refused on B: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, ` +
      `p99 ${percentile(latencies, 0.99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms over ${CHANGES} changes`,
  );
  await stopAll();

  // 3. Takeover: an accept-only node, a worker submitting to an SMSC that answers after 1 s
  // (window 10: jobs wait in the worker's hands), SIGKILL, a new worker, every message final.
  const smsc = await startSmscProcess({
    SMSC_ANSWER_DELAY_MS: '1000',
    SMSC_RECEIPT: 'DELIVRD',
    SMSC_REDELIVER_RECEIPTS: '1',
  });
  try {
    const takeover = await database();
    const api = await node(takeover, { DELIVERY_WORKERS: '0' });
    const workerEnv = {
      DATABASE_URL: takeover,
      LOG_LEVEL: 'warn',
      ...smscBind(smsc),
      SMPP_WINDOW: '10',
    };
    const first = await launchServer(workerEnv, WORKER);
    processes.push(first);
    const sender = await fundedClient(api);
    await Promise.all(
      Array.from({ length: TAKEOVER_MESSAGES }, async (_, i) =>
        expectStatus(
          await call(
            api,
            'POST',
            `/api/clients/${sender.id}/messages/sms`,
            { sender: 'Bench', recipient: '447700900123', body: `t${i}` },
            sender.auth,
          ),
          201,
          'send',
        ),
      ),
    );
    while ((await smsc.stats()).submits < 10) {
      await new Promise((r) => setTimeout(r, 50));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = performance.now();
    const atKill = (await smsc.stats()).submits;
    processes.push(await launchServer(workerEnv, WORKER));
    const db = new pg.Client({ connectionString: takeover });
    await db.connect();
    try {
      for (;;) {
        const { rows } = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM messages WHERE state IN ('ACCEPTED', 'SUBMITTED')",
        );
        if (rows[0]!.n === 0) break;
        if (performance.now() - killedAt > 120_000) {
          throw new Error(`${rows[0]!.n} messages still not final`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await db.end();
    }
    const { submits } = await smsc.stats();
    console.log(
      `takeover: worker killed with ${atKill} of ${TAKEOVER_MESSAGES} submitted; all final ` +
        `${((performance.now() - killedAt) / 1000).toFixed(1)} s after the kill ` +
        `(${submits - TAKEOVER_MESSAGES} sent twice)`,
    );
  } finally {
    await stopAll();
    await smsc.stop();
  }
} finally {
  await stopAll();
  cluster.remove();
}
