/**
 * `npm run bench:sms`: a customer's API client sends SMS concurrently for BENCH_SECONDS (10)
 * over BENCH_CONNECTIONS (50) connections. Prints accepted sends per second and whether the
 * final balance is exactly the start minus the sum of the prices of accepted sends (decimal
 * text read from the raw JSON, summed as scaled integers: no floating point anywhere).
 * Targets: ≥ 300/s on the embedded database, ≥ 1000/s on PostgreSQL (DATABASE_URL). Also prints
 * the latency of the sends (p50, p99). DATABASE_ENGINE picks the embedded engine (bench/server.ts).
 *
 * Then the peak (issue 22 item 2): the same sends over BENCH_PEAK_CONNECTIONS (800; 0 skips it;
 * not run with BENCH_RATE or BENCH_PREFILL).
 * Group commit writes whatever queued during the previous write, so with 50 connections the
 * server waits on the clients as much as they wait on it; the peak keeps it busy. Targets:
 * ≥ 2,000/s on PostgreSQL, ≥ 1,200/s embedded. Its latency is mostly the queue the 800
 * connections make (800 in flight at 2,000/s is 400 ms by Little's law), so it has no target.
 *
 * BENCH_RATE=n paces the sends at n a second (open loop: each send has its time, and its latency
 * counts from that time, so a server that falls behind shows it in p99); without it every
 * connection sends as fast as it is answered.
 *
 * With BENCH_PREFILL (issue 22 item 4) one run measures three times on the same database: empty,
 * then after the pre-fill as fast as it goes (target: ≥ 90 % of the empty rate), then paced at
 * 80 % of the empty rate (or at BENCH_RATE), where p99 has its target (≤ 100 ms).
 */
import { readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/open.ts';
import {
  type BenchServer,
  call,
  expectStatus,
  fundedBenchClient,
  seconds,
  startBenchServer,
} from './server.ts';
import { reportFigures, type Figure } from './report.ts';

const DURATION = seconds('BENCH_SECONDS', 10);
const RATE = seconds('BENCH_RATE', 0);
const CONNECTIONS = seconds('BENCH_CONNECTIONS', 50);
// 0 skips the peak (\`seconds\` reads 0 as unset).
const PEAK_CONNECTIONS =
  process.env.BENCH_PEAK_CONNECTIONS === '0'
    ? 0
    : seconds('BENCH_PEAK_CONNECTIONS', 800);
const CREDIT = '1000000';
const SCALE = 4;

/** Exact decimal text → integer count of 1/10^SCALE units. */
function toUnits(text: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match?.[1] || (match[2] ?? '').length > SCALE) {
    throw new Error(`not an amount with at most ${SCALE} decimals: ${text}`);
  }
  return BigInt(match[1] + (match[2] ?? '').padEnd(SCALE, '0'));
}

function fromUnits(units: bigint): string {
  const digits = units.toString().padStart(SCALE + 1, '0');
  return `${digits.slice(0, -SCALE)}.${digits.slice(-SCALE)}`;
}

/** The raw text of a top-level numeric field, before JSON.parse can round it. */
function rawNumber(json: string, field: string): string {
  const match = new RegExp(`"${field}":(-?[0-9.eE+-]+)`).exec(json);
  if (!match?.[1]) throw new Error(`no ${field} in ${json}`);
  return match[1];
}

/**
 * BENCH_PREFILL=n: the client already sent n messages (DELIVERED, with their ledger rows, the
 * balance debited to match) before the measure, written in one SQL statement while no server
 * holds the embedded database (stopped, then started again on the same DATA_DIR).
 */
const PREFILL = seconds('BENCH_PREFILL', 0);
const PREFILL_PRICE = '0.05';

async function prefill(
  running: BenchServer,
  clientId: string,
  balanceId: string,
): Promise<BenchServer> {
  const began = performance.now();
  if (running.dataDir) await running.stop();
  const db = await openDatabase(
    loadConfig({
      DATA_DIR: running.dataDir,
      DATABASE_URL: running.databaseUrl,
      DATABASE_ENGINE: process.env.DATABASE_ENGINE,
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
           WHERE c.id = $1 AND b.id = $4
           RETURNING id, date_created)
         INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason,
           message_id, date_created)
         SELECT $4, $1, -$3::numeric,
           b.amount - $3::numeric * row_number() OVER (ORDER BY sent.date_created),
           'SMS', sent.id, sent.date_created
         FROM sent, balances b WHERE b.id = $4
         ORDER BY sent.date_created`,
        [clientId, PREFILL, PREFILL_PRICE, balanceId],
      );
      await tx.query(
        'UPDATE balances SET amount = amount - $2::numeric * $3::int WHERE id = $1',
        [balanceId, PREFILL_PRICE, PREFILL],
      );
    });
  } finally {
    await db.close();
  }
  const next = running.dataDir
    ? await startBenchServer({ DATA_DIR: running.dataDir })
    : running;
  console.log(
    `prefilled            ${PREFILL} messages in ${((performance.now() - began) / 1000).toFixed(1)} s`,
  );
  return next;
}

/**
 * CPU time (user + system) the server's node process has used, in µs, from /proc (Linux; its
 * database's processes are not counted); undefined elsewhere.
 */
function cpuMicros(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return undefined;
  }
}

interface Measured {
  /** Accepted sends a second. */
  rate: number;
  p50: number;
  p99: number;
  exact: boolean;
  /** The server's node CPU per accepted send, µs (undefined where /proc is not there). */
  cpuPerSend: number | undefined;
}

/**
 * Sends for DURATION seconds over `connections` (paced at `rate` a second if > 0); prints and
 * returns the figures.
 */
async function measure(
  { url, child }: BenchServer,
  clientId: string,
  clientAuth: string,
  label: string,
  rate: number,
  connections = CONNECTIONS,
): Promise<Measured> {
  const balancePath = `/api/clients/${clientId}/balances/default`;
  const readBalance = async () => {
    const answer = await call(url, 'GET', balancePath, undefined, clientAuth);
    expectStatus(answer, 200, 'balance');
    return toUnits(rawNumber(answer.text, 'amount'));
  };
  const start = await readBalance();
  const cpuBefore = cpuMicros(child.pid);

  let accepted = 0;
  let spent = 0n;
  let socketErrors = 0;
  const latencies: number[] = [];
  const refused = new Map<number, number>();
  console.log(
    `\n${label}: ${connections} connections, ${DURATION} s` +
      (rate > 0 ? `, paced at ${rate.toFixed(0)}/s` : ''),
  );
  // Our own loop rather than a load tool: every request sent is awaited, so the sends in
  // flight when time runs out are counted and priced too.
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const payload = JSON.stringify({
    sender: 'Bench',
    recipient: '+44 20 7946 0958',
    body: 'Your verification code is 123456.',
    reference: 'bench',
  });
  const target = new URL(`/api/clients/${clientId}/messages/sms`, url);
  const send = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        target,
        {
          agent,
          method: 'POST',
          headers: {
            authorization: clientAuth,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const started = performance.now();
  const deadline = started + DURATION * 1000;
  let slots = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (;;) {
        // Paced: the next send's own time; its latency counts from then, even when every
        // connection was still busy at that time.
        let sentAt = performance.now();
        if (rate > 0) {
          sentAt = started + (slots++ * 1000) / rate;
          if (sentAt >= deadline) break;
          const wait = sentAt - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        } else if (sentAt >= deadline) {
          break;
        }
        try {
          const { status, body } = await send();
          latencies.push(performance.now() - sentAt);
          if (status === 201) {
            accepted += 1;
            spent += toUnits(rawNumber(body, 'price'));
          } else {
            refused.set(status, (refused.get(status) ?? 0) + 1);
          }
        } catch {
          socketErrors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuMicros(child.pid);
  agent.destroy();
  const end = await readBalance();
  const exact = start - spent === end;
  console.log(
    `accepted sends       ${accepted} in ${elapsed.toFixed(1)} s = ${(accepted / elapsed).toFixed(0)}/s`,
  );
  if (refused.size > 0 || socketErrors > 0) {
    console.log(
      `not accepted         ${[...refused].map(([s, n]) => `${n}×${s}`).join(', ') || 'none'}; socket errors ${socketErrors}`,
    );
  }
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    Number(
      latencies[
        Math.min(latencies.length - 1, Math.floor(latencies.length * p))
      ]?.toFixed(1),
    );
  const cpuPerSend =
    cpuBefore !== undefined && cpuAfter !== undefined && accepted > 0
      ? Math.round((cpuAfter - cpuBefore) / accepted)
      : undefined;
  if (cpuPerSend !== undefined) {
    // Clock ticks of 10 ms: only a long enough run says anything below the tens of µs.
    console.log(`server node CPU      ${cpuPerSend} µs per accepted send`);
  }
  console.log(
    `latency              p50 ${percentile(0.5)} ms, p99 ${percentile(0.99)} ms`,
  );
  console.log(
    `balance              start ${fromUnits(start)} − spent ${fromUnits(spent)} = ${fromUnits(start - spent)}; final ${fromUnits(end)}`,
  );
  console.log(`balance exact        ${exact ? 'yes' : 'NO'}`);
  return {
    rate: Math.round(accepted / elapsed),
    p50: percentile(0.5),
    p99: percentile(0.99),
    exact,
    cpuPerSend,
  };
}

let server = await startBenchServer();
try {
  const { clientId, clientAuth } = await fundedBenchClient(server.url, CREDIT);
  // A client's default balance has the client's id (README, Accountability).
  const balanceId = clientId;
  console.log(`bench:sms — ${server.database}`);
  const goal = process.env.DATABASE_URL ? 1000 : 300;
  const first = await measure(
    server,
    clientId,
    clientAuth,
    PREFILL > 0 ? 'empty database' : 'sends',
    RATE,
  );
  console.log(`target ≥ ${goal}/s: ${first.rate >= goal ? 'met' : 'NOT met'}`);
  const figures: Figure[] = [
    {
      name: `accepted sends (${server.database})`,
      value: first.rate,
      unit: '/s',
      target: { op: '>=', value: goal },
    },
    { name: 'p50', value: first.p50, unit: 'ms' },
    { name: 'p99', value: first.p99, unit: 'ms' },
  ];
  if (first.cpuPerSend !== undefined) {
    figures.push({
      name: 'server node CPU per accepted send',
      value: first.cpuPerSend,
      unit: 'µs',
    });
  }
  let exact = first.exact;
  if (PEAK_CONNECTIONS > 0 && RATE === 0 && PREFILL === 0) {
    const peak = await measure(
      server,
      clientId,
      clientAuth,
      'peak',
      0,
      PEAK_CONNECTIONS,
    );
    exact &&= peak.exact;
    const peakGoal = process.env.DATABASE_URL ? 2000 : 1200;
    console.log(
      `peak target ≥ ${peakGoal}/s: ${peak.rate >= peakGoal ? 'met' : 'NOT met'}`,
    );
    figures.push(
      {
        name: `accepted sends over ${PEAK_CONNECTIONS} connections`,
        value: peak.rate,
        unit: '/s',
        target: { op: '>=', value: peakGoal },
      },
      {
        name: `p50 over ${PEAK_CONNECTIONS} connections`,
        value: peak.p50,
        unit: 'ms',
      },
      {
        name: `p99 over ${PEAK_CONNECTIONS} connections`,
        value: peak.p99,
        unit: 'ms',
      },
      ...(peak.cpuPerSend === undefined
        ? []
        : [
            {
              name: `server node CPU per accepted send over ${PEAK_CONNECTIONS} connections`,
              value: peak.cpuPerSend,
              unit: 'µs',
            },
          ]),
    );
  }
  if (PREFILL > 0) {
    server = await prefill(server, clientId, balanceId);
    const full = await measure(
      server,
      clientId,
      clientAuth,
      `after ${PREFILL} messages`,
      RATE,
    );
    const paceAt = RATE > 0 ? RATE : Math.round(first.rate * 0.8);
    const paced = await measure(
      server,
      clientId,
      clientAuth,
      `after ${PREFILL} messages, paced`,
      paceAt,
    );
    exact &&= full.exact && paced.exact;
    const kept = full.rate / first.rate;
    console.log(
      `\nafter ${PREFILL} messages: ${full.rate}/s = ${(kept * 100).toFixed(0)} % of the empty ` +
        `database's ${first.rate}/s (target ≥ 90 %); p99 at ${paceAt}/s: ${paced.p99} ms (target ≤ 100 ms)`,
    );
    figures.push(
      {
        name: `accepted sends after ${PREFILL} messages`,
        value: full.rate,
        unit: '/s',
      },
      {
        name: `after ${PREFILL} messages / empty`,
        value: Number(kept.toFixed(2)),
        unit: '×',
        target: { op: '>=', value: 0.9 },
      },
      {
        name: `p99 after ${PREFILL} messages at ${paceAt}/s`,
        value: paced.p99,
        unit: 'ms',
        target: { op: '<=', value: 100 },
      },
    );
  }
  figures.push({
    name: 'balance exact (1 = yes)',
    value: exact ? 1 : 0,
    unit: '',
    target: { op: '>=', value: 1 },
  });
  reportFigures('sms', figures);
  if (!exact) process.exitCode = 1;
} finally {
  await server.stop();
  if (server.dataDir) rmSync(server.dataDir, { recursive: true, force: true });
}
