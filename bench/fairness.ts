/**
 * `npm run bench:fairness` (issue 30, finding 1): do clients share the provider fairly, and does
 * fairness cost throughput? Through one SMPP bind to the test SMSC in its own process (answering
 * at once), on the embedded database or on DATABASE_URL.
 *
 * 1. Latency behind a backlog: with SMPP_MAX_TPS=50, client A posts one batch of
 *    BENCH_FAIR_BATCH (10,000) recipients (200 s of traffic at that cap); client B then sends one
 *    SMS right after A's batch is accepted, and again 5 s and 10 s later. Each B message's
 *    latency is its arrival at the SMSC minus the moment its send was posted. Budget (CONTRACT
 *    "Fair delivery"): the worst ≤ 5 s; above it (or when one has not arrived within
 *    BENCH_FAIR_WAIT_SECONDS, 60, reported as that), exit 1.
 * 2. Throughput with no cap: BENCH_FAIR_MESSAGES (6000) messages sent at once as one batch per
 *    client, by 1, 10 and 100 clients in turn; the rate is messages / (first batch posted → last
 *    submit at the SMSC). Fair ordering must not slow a single client nor many: no budget, the
 *    figures are for comparing runs (and the 100-client rate against the 1-client one).
 */
import { rmSync } from 'node:fs';
import { startSmscProcess } from '../tests/support/smsc-process.ts';
import {
  BENCH_ADMIN,
  basicHeader,
  call,
  expectStatus,
  registerBenchUser,
  seconds,
  startBenchServer,
  type BenchServer,
} from './server.ts';
import { reportFigures, type Figure } from './report.ts';

const BATCH = seconds('BENCH_FAIR_BATCH', 10_000);
const MESSAGES = seconds('BENCH_FAIR_MESSAGES', 6000);
const WAIT_SECONDS = seconds('BENCH_FAIR_WAIT_SECONDS', 60);
const TPS = 50;
const LATENCY_BUDGET_SECONDS = 5;
/** A user may hold 30 clients (MAX_CLIENTS_PER_USER): a new user every 25. */
const CLIENTS_PER_USER = 25;

interface Client {
  id: string;
  auth: string;
}

/** `count` API clients with credit enough for anything these runs send. */
async function fundedClients(url: string, count: number): Promise<Client[]> {
  const clients: Client[] = [];
  let userAuth = '';
  for (let i = 0; i < count; i++) {
    if (i % CLIENTS_PER_USER === 0) userAuth = await registerBenchUser(url);
    const created = await call(
      url,
      'POST',
      '/api/clients',
      { name: `fair ${i}` },
      userAuth,
    );
    expectStatus(created, 201, 'create client');
    const client = JSON.parse(created.text) as { id: string; secret: string };
    const granted = await call(
      url,
      'POST',
      `/api/admin/clients/${client.id}/balances/${client.id}/freecredit`,
      { amount: '100000' },
      basicHeader(BENCH_ADMIN.email, BENCH_ADMIN.password),
    );
    expectStatus(granted, 200, 'free credit');
    clients.push({
      id: client.id,
      auth: basicHeader(client.id, client.secret),
    });
  }
  return clients;
}

/** `n` distinct recipients (a batch sends duplicates once). */
function recipients(n: number, offset = 0): string[] {
  return Array.from(
    { length: n },
    (_, i) => `4477${String(offset + i).padStart(8, '0')}`,
  );
}

async function postBatch(
  url: string,
  client: Client,
  to: string[],
  body: string,
): Promise<void> {
  const answer = await call(
    url,
    'POST',
    `/api/clients/${client.id}/batches`,
    { recipients: to, body, sender: 'Bench' },
    client.auth,
  );
  expectStatus(answer, 201, 'batch');
}

async function withServer<T>(
  env: Record<string, string>,
  run: (
    server: BenchServer,
    smsc: Awaited<ReturnType<typeof startSmscProcess>>,
  ) => Promise<T>,
): Promise<T> {
  const smsc = await startSmscProcess({});
  const server = await startBenchServer({
    SMPP_HOST: smsc.host,
    SMPP_PORT: String(smsc.port),
    SMPP_SYSTEM_ID: 'test',
    SMPP_PASSWORD: 'secret',
    ...env,
  });
  try {
    return await run(server, smsc);
  } finally {
    await server.stop();
    await smsc.stop();
    if (server.dataDir) {
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  }
}

/** Part 1: B's latencies (seconds) behind A's batch of BATCH at SMPP_MAX_TPS=50. */
const latencies = await withServer(
  { SMPP_MAX_TPS: String(TPS) },
  async (server, smsc) => {
    const [a, b] = await fundedClients(server.url, 2);
    console.log(
      `bench:fairness — ${server.database}; part 1: SMPP_MAX_TPS=${TPS}, client A's batch of ${BATCH}, then client B's single sends`,
    );
    await postBatch(server.url, a!, recipients(BATCH), 'backlog of A');
    const found: number[] = [];
    for (const [index, delay] of [0, 5, 10].entries()) {
      if (delay > 0) await new Promise((r) => setTimeout(r, 5000));
      const text = `B's message ${index}`;
      const posted = Date.now();
      const answer = await call(
        server.url,
        'POST',
        `/api/clients/${b!.id}/messages/sms`,
        { sender: 'Bench', recipient: '447700900999', body: text },
        b!.auth,
      );
      expectStatus(answer, 201, 'single send');
      let latency = WAIT_SECONDS;
      while (Date.now() - posted < WAIT_SECONDS * 1000) {
        const stats = await smsc.stats();
        const at = stats.texts.indexOf(text);
        if (at >= 0) {
          latency = (stats.arrivals[at]! - posted) / 1000;
          console.log(
            `B's message ${delay} s after A's batch: at the SMSC ${latency.toFixed(2)} s after its send, behind ${at} submits of A`,
          );
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      if (latency === WAIT_SECONDS) {
        console.log(
          `B's message ${delay} s after A's batch: not at the SMSC within ${WAIT_SECONDS} s`,
        );
      }
      found.push(latency);
    }
    return found;
  },
);
const worst = Math.max(...latencies);

/** Part 2: delivery rate with 1, 10 and 100 clients sending at once, no cap. */
const rates = await withServer({}, async (server, smsc) => {
  const clients = await fundedClients(server.url, 100);
  console.log(
    `part 2: no TPS cap, ${MESSAGES} messages as one batch per client`,
  );
  const result: { clients: number; rate: number }[] = [];
  for (const count of [1, 10, 100]) {
    const before = (await smsc.stats()).submits;
    const per = Math.floor(MESSAGES / count);
    const total = per * count;
    const started = Date.now();
    await Promise.all(
      clients
        .slice(0, count)
        .map((client, i) =>
          postBatch(
            server.url,
            client,
            recipients(per, i * per),
            `rate run of ${count}`,
          ),
        ),
    );
    let stats = await smsc.stats();
    while (stats.submits < before + total) {
      if (Date.now() - started > 300_000) {
        throw new Error(
          `${before + total - stats.submits} of ${total} not submitted`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
      stats = await smsc.stats();
    }
    const last = stats.arrivals[before + total - 1]!;
    const rate = Math.round(total / ((last - started) / 1000));
    console.log(
      `${String(count).padStart(3)} client(s): ${total} messages submitted in ${((last - started) / 1000).toFixed(2)} s = ${rate}/s`,
    );
    result.push({ clients: count, rate });
  }
  return result;
});

const figures: Figure[] = [
  {
    name: `another client's single SMS at the SMSC behind a ${BATCH}-message batch, SMPP_MAX_TPS=${TPS} (worst of 3)`,
    value: Number(worst.toFixed(2)),
    unit: 's',
    target: { op: '<=', value: LATENCY_BUDGET_SECONDS },
  },
  ...rates.map(({ clients, rate }) => ({
    name: `delivered with ${clients} client(s) sending at once, no cap (posted → last submit)`,
    value: rate,
    unit: '/s',
  })),
];
const ok = reportFigures('fairness', figures);
process.exit(ok ? 0 : 1);
