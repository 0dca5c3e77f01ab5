/**
 * `npm run bench:delivery`: does delivery keep pace with accepting? Through one SMPP bind to a
 * local SMSC (the test SMSC in its own process, answering at once with DELIVRD receipts), with the
 * server's DEFAULT delivery settings unless SMPP_WINDOW / DELIVERY_WORKERS are set here, on the
 * embedded database or on DATABASE_URL.
 *
 * An API client sends BENCH_MESSAGES (5000) over BENCH_CONNECTIONS (32, issue 34's reference
 * point; it was 50) connections as fast as the server accepts them while its workers deliver. Counted at the SMSC, which reports when each
 * submit_sm arrived: the gap from the load's end (the last accept answered) to the last submit
 * (target ≤ 1 s: delivery kept pace, drain included), and the end-to-end rate
 * messages / (last submit − first accept), as the peer (Jasmin) is measured (goal: 3× its ~280/s
 * on this 2-core machine; it cannot exceed the accept rate). Then it waits until
 * every message is final and prints accept → DELIVERED p50/p99 (dateUpdated − dateCreated, both
 * taken by the database; p99 target ≤ 60 ms), the accept rate (target ≥ 1,700/s embedded,
 * ≥ 1,550/s on PostgreSQL) and the CPU the server used per message, accepted and delivered
 * (target ≤ 0.8 ms): node and every postgres process of its tree (the embedded database), or on
 * DATABASE_URL node plus that server's postmaster tree when it runs on this machine (all its
 * databases: another load on it counts too), from the load's start until the last is final.
 */
import { rmSync } from 'node:fs';
import { loadConfig } from '../src/server/config.ts';
import { DELIVERY_BATCH_SIZE } from '../src/server/delivery/jobs.ts';
import { startSmscProcess } from '../tests/support/smsc-process.ts';
import {
  call,
  fundedBenchClient,
  seconds,
  smsSender,
  startBenchServer,
} from './server.ts';
import { reportFigures } from './report.ts';
import {
  localPostmaster,
  processCpuMicros,
  treeCpuMicros,
} from './process-cpu.ts';

const MESSAGES = seconds('BENCH_MESSAGES', 5000);
const CONNECTIONS = seconds('BENCH_CONNECTIONS', 32);
/** Only what is set here overrides the server's defaults. */
const overrides: Record<string, string> = {};
for (const name of ['SMPP_WINDOW', 'DELIVERY_WORKERS'] as const) {
  if (process.env[name]) overrides[name] = process.env[name];
}
/** The delivery settings the server runs with (its defaults but for `overrides`). */
const settings = loadConfig({
  SMPP_HOST: '127.0.0.1',
  SMPP_SYSTEM_ID: 'test',
  SMPP_PASSWORD: 'secret',
  DATABASE_URL: process.env.DATABASE_URL,
  ...overrides,
}).delivery;
/** The end of the load to the last submit at the SMSC. */
const GAP_TARGET_SECONDS = 1;
/** Issue 22's goal: 3 × the ~280/s Jasmin 0.11.0 delivered end to end on the same machine. */
const END_TO_END_TARGET = 3 * 280;
/** Issue 34: 1.3 × what main accepted at 32 connections (1,301/s embedded, 1,196/s PostgreSQL). */
const ACCEPT_TARGET = process.env.DATABASE_URL ? 1550 : 1700;
const P99_TARGET_MS = 60;
/** Issue 34: node + PostgreSQL CPU per accepted-and-delivered message (was ~1.2–1.3 ms). */
const CPU_TARGET_MS = 0.8;

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
  ...overrides,
});
try {
  const { clientId, clientAuth } = await fundedBenchClient(
    server.url,
    '1000000',
  );
  const client = { id: clientId };
  console.log(
    `bench:delivery — ${server.database}, ${MESSAGES} messages over ${CONNECTIONS} connections`,
  );
  console.log(
    `settings             SMPP_WINDOW ${settings.smpp!.window}, DELIVERY_WORKERS ${settings.workers}, jobs per fetch ${DELIVERY_BATCH_SIZE}${Object.keys(overrides).length ? ` (set here: ${Object.keys(overrides).join(', ')})` : ' (defaults)'}`,
  );

  const { send, close: closeSender } = smsSender(
    server.url,
    client.id,
    clientAuth,
    CONNECTIONS,
  );

  // The server's tree holds the embedded PostgreSQL; on DATABASE_URL its server, if local.
  const postmaster = server.databaseUrl
    ? await localPostmaster(server.databaseUrl)
    : undefined;
  const cpuCounted = server.databaseUrl
    ? postmaster
      ? `node + the PostgreSQL server's processes (postmaster ${postmaster}, all its databases)`
      : 'node only (the PostgreSQL server is not visible in /proc here)'
    : 'node + the embedded PostgreSQL';
  const cpuNow = () => {
    const node = treeCpuMicros(server.child.pid);
    if (node === undefined) return undefined;
    return (
      node + (postmaster === undefined ? 0 : (treeCpuMicros(postmaster) ?? 0))
    );
  };
  const cpuBefore = cpuNow();
  const nodeBefore = processCpuMicros(server.child.pid);

  const started = performance.now();
  let next = 0;
  let refused = 0;
  const sendLatencies: number[] = [];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < MESSAGES) {
        const n = next++;
        const sentAt = performance.now();
        if ((await send(n)) !== 201) refused++;
        sendLatencies.push(performance.now() - sentAt);
      }
    }),
  );
  const acceptSeconds = (performance.now() - started) / 1000;
  sendLatencies.sort((a, b) => a - b);
  const loadEnd = Date.now();
  closeSender();
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
  const cpuAfter = cpuNow();
  const nodeAfter = processCpuMicros(server.child.pid);
  rows = await readAll();
  const delivered = rows.filter((r) => r.state === 'DELIVERED');
  const firstAccept = Math.min(...rows.map((r) => Date.parse(r.dateCreated)));
  const latencies = delivered
    .map((r) => Date.parse(r.dateUpdated) - Date.parse(r.dateCreated))
    .sort((a, b) => a - b);
  const stats = await smsc.stats();
  if (stats.submits < MESSAGES) {
    throw new Error(`the SMSC got ${stats.submits} of ${MESSAGES} submits`);
  }
  const lastSubmit = Math.max(...stats.arrivals);
  const gap = (lastSubmit - loadEnd) / 1000;
  const endToEnd = MESSAGES / ((lastSubmit - firstAccept) / 1000);
  const clock = (t: number) => new Date(t).toISOString().slice(11, 23);
  console.log(
    `accepted             ${MESSAGES} in ${acceptSeconds.toFixed(1)} s = ${Math.round(MESSAGES / acceptSeconds)}/s`,
  );
  console.log(
    `load                 first accept ${clock(firstAccept)}, load end ${clock(loadEnd)}`,
  );
  console.log(
    `last submit (SMSC)   ${clock(lastSubmit)}: ${gap.toFixed(2)} s after the load end (target ≤ ${GAP_TARGET_SECONDS} s: ${gap <= GAP_TARGET_SECONDS ? 'met' : 'NOT met'})`,
  );
  console.log(
    `submitted end to end ${Math.round(endToEnd)}/s (${MESSAGES} / (last submit − first accept); ${stats.submits} submit_sm received; goal ≥ ${END_TO_END_TARGET}/s, 3× Jasmin)`,
  );
  console.log(
    `send latency         p50 ${percentile(sendLatencies, 50).toFixed(1)} ms, p99 ${percentile(sendLatencies, 99).toFixed(1)} ms (the POST's answer, while delivering; target p99 ≤ ${P99_TARGET_MS} ms)`,
  );
  console.log(
    `latency              accept → DELIVERED p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms (${delivered.length} of ${rows.length} DELIVERED)`,
  );
  // Clock ticks of 10 ms over a run of seconds: precise to well under 1 %.
  const cpuPerMessage =
    cpuBefore !== undefined && cpuAfter !== undefined
      ? (cpuAfter - cpuBefore) / 1000 / MESSAGES
      : undefined;
  if (cpuPerMessage !== undefined) {
    const node = (nodeAfter! - nodeBefore!) / 1000 / MESSAGES;
    console.log(
      `CPU per message      ${cpuPerMessage.toFixed(3)} ms accepted and delivered: node ${node.toFixed(3)} + PostgreSQL ${(cpuPerMessage - node).toFixed(3)} (${cpuCounted}; target ≤ ${CPU_TARGET_MS} ms)`,
    );
  }
  reportFigures('delivery', [
    {
      name: `last submit at the SMSC after the load end (${server.database})`,
      value: Number(gap.toFixed(2)),
      unit: 's',
      target: { op: '<=', value: GAP_TARGET_SECONDS },
    },
    {
      name: `accepted during the load over ${CONNECTIONS} connections`,
      value: Math.round(MESSAGES / acceptSeconds),
      unit: '/s',
      target: { op: '>=', value: ACCEPT_TARGET },
    },
    {
      name: 'submitted end to end (first accept → last submit), 3× Jasmin',
      value: Math.round(endToEnd),
      unit: '/s',
      target: { op: '>=', value: END_TO_END_TARGET },
    },
    {
      name: `send p99 over ${CONNECTIONS} connections while delivering`,
      value: Number(percentile(sendLatencies, 99).toFixed(1)),
      unit: 'ms',
      target: { op: '<=', value: P99_TARGET_MS },
    },
    {
      name: 'accept → DELIVERED p99',
      value: Number(percentile(latencies, 99)),
      unit: 'ms',
    },
    ...(cpuPerMessage === undefined
      ? []
      : [
          {
            name: `CPU per message accepted and delivered (${cpuCounted})`,
            value: Number(cpuPerMessage.toFixed(3)),
            unit: 'ms',
            target: { op: '<=' as const, value: CPU_TARGET_MS },
          },
        ]),
  ]);
} finally {
  await server.stop();
  await smsc.stop();
  if (server.dataDir) rmSync(server.dataDir, { recursive: true, force: true });
}
