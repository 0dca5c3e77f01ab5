/**
 * `npm run bench:delivery`: messages delivered per second through SMPP to a local SMSC (the test
 * SMSC in its own process, answering at once with DELIVRD receipts) at window SMPP_WINDOW (10),
 * and the accept → DELIVERED latency p50/p99, on the embedded database or on DATABASE_URL.
 *
 * An API client sends BENCH_MESSAGES (5000) over BENCH_CONNECTIONS (50) connections as fast as
 * the server accepts them while its workers deliver; then the bench waits until every message is
 * final. delivered/s = messages / (last DELIVERED − first accept). Latency per message is its
 * dateUpdated (when DELIVERED was written) minus its dateCreated (when it was accepted), both
 * taken by the database. DELIVERY_WORKERS (1) sets the server's workers. Targets on a
 * 2-core machine: 500/s embedded, 1000/s on PostgreSQL.
 */
import { Agent, request } from 'node:http';
import { startSmscProcess } from '../tests/support/smsc-process.ts';
import {
  call,
  fundedBenchClient,
  seconds,
  startBenchServer,
} from './server.ts';
import { reportFigures } from './report.ts';

const MESSAGES = seconds('BENCH_MESSAGES', 5000);
const CONNECTIONS = seconds('BENCH_CONNECTIONS', 50);
const WINDOW = seconds('SMPP_WINDOW', 10);
/** The server's delivery workers (its default, 1, unless DELIVERY_WORKERS says otherwise). */
const WORKERS = String(seconds('DELIVERY_WORKERS', 1));

function percentile(sorted: number[], p: number): number {
  return sorted[
    Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))
  ]!;
}

const smsc = await startSmscProcess({ SMSC_RECEIPT: 'DELIVRD' });
const server = await startBenchServer({
  SMPP_HOST: smsc.host,
  SMPP_PORT: String(smsc.port),
  SMPP_SYSTEM_ID: 'test',
  SMPP_PASSWORD: 'secret',
  SMPP_WINDOW: String(WINDOW),
  DELIVERY_WORKERS: WORKERS,
});
try {
  const { clientId, clientAuth } = await fundedBenchClient(
    server.url,
    '1000000',
  );
  const client = { id: clientId };
  console.log(
    `bench:delivery — ${server.database}, SMPP window ${WINDOW}, DELIVERY_WORKERS ${WORKERS}, ${MESSAGES} messages over ${CONNECTIONS} connections`,
  );

  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const url = new URL(`${server.url}/api/clients/${client.id}/messages/sms`);
  const send = (n: number) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({
        sender: 'Bench',
        recipient: '447700900123',
        body: `bench message ${n}`,
      });
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: clientAuth,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const started = performance.now();
  let next = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < MESSAGES) {
        const n = next++;
        if ((await send(n)) !== 201) refused++;
      }
    }),
  );
  const acceptSeconds = (performance.now() - started) / 1000;
  const acceptedAt = Date.now();
  agent.destroy();
  if (refused > 0) throw new Error(`${refused} sends were refused`);

  // Wait until every message is final, reading the log a page at a time.
  type Row = { state: string; dateCreated: string; dateUpdated: string };
  const readAll = async (): Promise<Row[]> => {
    const rows: Row[] = [];
    for (let offset = 0; ; offset += 300) {
      const page = await call(
        server.url,
        'GET',
        `/api/clients/${client.id}/messages?count=300&offset=${offset}`,
        undefined,
        clientAuth,
      );
      const body = JSON.parse(page.text) as { messages: Row[] };
      rows.push(...body.messages);
      if (body.messages.length < 300) return rows;
    }
  };
  const deadline = Date.now() + 300_000;
  let rows: Row[] = [];
  for (;;) {
    const pending = await call(
      server.url,
      'GET',
      `/api/clients/${client.id}/messages?count=1&state=ACCEPTED`,
      undefined,
      clientAuth,
    );
    const submitted = await call(
      server.url,
      'GET',
      `/api/clients/${client.id}/messages?count=1&state=SUBMITTED`,
      undefined,
      clientAuth,
    );
    const left =
      JSON.parse(pending.text).total + JSON.parse(submitted.text).total;
    if (left === 0) break;
    if (Date.now() > deadline)
      throw new Error(`${left} messages still not final`);
    await new Promise((r) => setTimeout(r, 250));
  }
  rows = await readAll();
  const delivered = rows.filter((r) => r.state === 'DELIVERED');
  const accepts = rows.map((r) => Date.parse(r.dateCreated));
  const finished = delivered.map((r) => Date.parse(r.dateUpdated));
  const span = (Math.max(...finished) - Math.min(...accepts)) / 1000;
  const latencies = delivered
    .map((r) => Date.parse(r.dateUpdated) - Date.parse(r.dateCreated))
    .sort((a, b) => a - b);
  const stats = await smsc.stats();
  const afterAccepts = finished.filter((t) => t > acceptedAt);
  const drainSpan = (Math.max(...finished) - acceptedAt) / 1000;
  const rate = delivered.length / span;
  const goal = process.env.DATABASE_URL ? 1000 : 500;
  console.log(
    `accepted             ${MESSAGES} in ${acceptSeconds.toFixed(1)} s = ${Math.round(MESSAGES / acceptSeconds)}/s`,
  );
  console.log(
    `delivered            ${delivered.length} of ${rows.length} in ${span.toFixed(1)} s (first accept → last DELIVERED) = ${Math.round(rate)}/s`,
  );
  console.log(
    `latency              accept → DELIVERED p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`,
  );
  if (afterAccepts.length > 0 && drainSpan > 0.5) {
    console.log(
      `  after the last accept ${afterAccepts.length} in ${drainSpan.toFixed(1)} s = ${Math.round(afterAccepts.length / drainSpan)}/s (delivery alone)`,
    );
  }
  console.log(`SMSC                 ${stats.submits} submit_sm received`);
  console.log(`target ≥ ${goal}/s: ${rate >= goal ? 'met' : 'NOT met'}`);
  reportFigures('delivery', [
    {
      name: `delivered, first accept → last DELIVERED (${server.database})`,
      value: Math.round(rate),
      unit: '/s',
      target: { op: '>=', value: goal },
    },
    {
      name: 'last DELIVERED after the last accept',
      value: Number(Math.max(0, drainSpan).toFixed(1)),
      unit: 's',
    },
    {
      name: 'accept → DELIVERED p99',
      value: Number(percentile(latencies, 99)),
      unit: 'ms',
    },
  ]);
} finally {
  await server.stop();
  await smsc.stop();
}
