/**
 * `DATABASE_URL=… node bench/send-cost.ts`: the PostgreSQL CPU of one send, by the statement the
 * server runs for a group of sends (send_sms_batch, migrations/functions/send_sms_batch.sql), in
 * µs per message, for groups of 1, 10 and 30 sends, each group its own transaction (its commit
 * included). Read from /proc/<backend>/stat of the one session that runs them (the server is
 * stopped first), so it is CPU time, not wall time: a busy machine slows it down but hardly
 * changes it, unlike pg_stat_statements' times (which count waiting for the CPU and for locks).
 * Needs a PostgreSQL server on this machine (its backends visible in /proc); the group's
 * statement is the server's own, migrated from this checkout's migrations/functions.
 *
 * BENCH_GROUPS (default 300 groups per size) sets the number of groups measured per size.
 */
import pg from 'pg';
import { stopServer } from '../tests/support/spawn-server.ts';
import { processCpuMicros } from './process-cpu.ts';
import { reportFigures, type Figure } from './report.ts';
import { fundedBenchClient, seconds, startBenchServer } from './server.ts';

if (!process.env.DATABASE_URL) {
  console.error(
    'bench/send-cost.ts needs DATABASE_URL (a PostgreSQL server on this machine)',
  );
  process.exit(2);
}
const GROUPS = seconds('BENCH_GROUPS', 300);
const SIZES = [1, 10, 30];

const server = await startBenchServer();
try {
  const { clientId } = await fundedBenchClient(server.url, '1000000');
  // Only this session's statements from here on: no workers fetching, no group commit.
  await stopServer(server);
  const db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ pid: number; owner: string }>(
      'SELECT pg_backend_pid() AS pid, user_id AS owner FROM clients WHERE id = $1',
      [clientId],
    );
    const { pid, owner } = rows[0]!;
    if (processCpuMicros(pid) === undefined) {
      throw new Error(`backend ${pid} is not visible in /proc here`);
    }
    const group = (size: number) =>
      JSON.stringify(
        Array.from({ length: size }, (_, i) => ({
          clientId,
          ownerId: owner,
          defaultPrice: '0.05',
          sender: 'Bench',
          recipient: '+442079460958',
          body: `Your verification code is ${100000 + i}.`,
          reference: 'bench',
          encoding: 'GSM-7',
          segments: 1,
          actorUserId: null,
          key: null,
          hash: null,
          sendAt: null,
          replyTo: null,
        })),
      );
    const send = (payload: string) =>
      db.query('SELECT answer FROM send_sms_batch($1::jsonb)', [payload]);
    // Warm the session's plan caches and the tables' pages first.
    for (let i = 0; i < 20; i++) await send(group(10));
    const figures: Figure[] = [];
    console.log(
      `bench:send-cost — ${server.database}, ${GROUPS} groups a size, backend ${pid}`,
    );
    for (const size of SIZES) {
      const payload = group(size);
      const before = processCpuMicros(pid)!;
      for (let i = 0; i < GROUPS; i++) await send(payload);
      const perMessage = (processCpuMicros(pid)! - before) / (GROUPS * size);
      console.log(
        `groups of ${String(size).padStart(2)}        ${perMessage.toFixed(0)} µs of PostgreSQL CPU per message (the backend's, commit included)`,
      );
      figures.push({
        name: `send_sms_batch, groups of ${size}: backend CPU per message`,
        value: Math.round(perMessage),
        unit: 'µs',
      });
    }
    reportFigures('send-cost', figures);
  } finally {
    await db.end();
  }
} finally {
  await server.stop();
}
