/**
 * `npm run bench:sms`: a customer's API client sends SMS concurrently for BENCH_SECONDS (10)
 * over BENCH_CONNECTIONS (50) connections. Prints accepted sends per second and whether the
 * final balance is exactly the start minus the sum of the prices of accepted sends (decimal
 * text read from the raw JSON, summed as scaled integers: no floating point anywhere).
 * Targets: ≥ 300/s on the embedded database, ≥ 1000/s on PostgreSQL (DATABASE_URL). Also prints
 * the latency of the sends (p50, p99). DATABASE_ENGINE picks the embedded engine (bench/server.ts).
 */
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
import { reportFigures } from './report.ts';

const DURATION = seconds('BENCH_SECONDS', 10);
const CONNECTIONS = seconds('BENCH_CONNECTIONS', 50);
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
      DATABASE_URL: process.env.DATABASE_URL,
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

let server = await startBenchServer();
try {
  const { clientId, clientAuth } = await fundedBenchClient(server.url, CREDIT);
  const client = { id: clientId };
  // A client's default balance has the client's id (README, Accountability).
  const balanceId = client.id;
  if (PREFILL > 0) server = await prefill(server, client.id, balanceId);

  const balancePath = `/api/clients/${client.id}/balances/default`;
  const readBalance = async () => {
    const answer = await call(
      server.url,
      'GET',
      balancePath,
      undefined,
      clientAuth,
    );
    expectStatus(answer, 200, 'balance');
    return toUnits(rawNumber(answer.text, 'amount'));
  };
  const start = await readBalance();

  let accepted = 0;
  let spent = 0n;
  let socketErrors = 0;
  const latencies: number[] = [];
  const refused = new Map<number, number>();
  console.log(
    `bench:sms — ${server.database}, ${CONNECTIONS} connections, ${DURATION} s` +
      (PREFILL > 0 ? `, after ${PREFILL} messages` : ''),
  );
  // Our own loop rather than a load tool: every request sent is awaited, so the sends in
  // flight when time runs out are counted and priced too.
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const payload = JSON.stringify({
    sender: 'Bench',
    recipient: '+44 20 7946 0958',
    body: 'Your verification code is 123456.',
    reference: 'bench',
  });
  const target = new URL(`/api/clients/${client.id}/messages/sms`, server.url);
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
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        try {
          const sentAt = performance.now();
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
    latencies[
      Math.min(latencies.length - 1, Math.floor(latencies.length * p))
    ]?.toFixed(1);
  console.log(
    `latency              p50 ${percentile(0.5)} ms, p99 ${percentile(0.99)} ms`,
  );
  console.log(
    `balance              start ${fromUnits(start)} − spent ${fromUnits(spent)} = ${fromUnits(start - spent)}; final ${fromUnits(end)}`,
  );
  console.log(`balance exact        ${exact ? 'yes' : 'NO'}`);
  const goal = process.env.DATABASE_URL ? 1000 : 300;
  console.log(
    `target ≥ ${goal}/s: ${accepted / elapsed >= goal ? 'met' : 'NOT met'}`,
  );
  reportFigures('sms', [
    {
      name: `accepted sends (${server.database})`,
      value: Math.round(accepted / elapsed),
      unit: '/s',
      target: { op: '>=', value: goal },
    },
    { name: 'p50', value: Number(percentile(0.5)), unit: 'ms' },
    { name: 'p99', value: Number(percentile(0.99)), unit: 'ms' },
    {
      name: 'balance exact (1 = yes)',
      value: exact ? 1 : 0,
      unit: '',
      target: { op: '>=', value: 1 },
    },
  ]);
  if (!exact) process.exitCode = 1;
} finally {
  await server.stop();
}
