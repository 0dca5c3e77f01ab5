// @also-on-pglite: the queue alarm listens through PGlite's own listen(), on PostgreSQL through a LISTEN connection.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKER_POLL_SECONDS } from '../../../src/server/delivery/alarm.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * An idle node sleeps (its workers poll only every WORKER_POLL_SECONDS, and this server's alarm
 * looks at the queue only every minute), yet a job that another node or any SQL writes is taken
 * at once, and a job that starts later is taken when it starts: the job-writing SQL notifies
 * (migrations/024) and the alarm wakes the workers at the job's start.
 */
const IDLE_CHECK_MS = 60_000;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({}, { queueIdleCheckMs: IDLE_CHECK_MS });
  // Past the first look of the alarm and the workers' first fetch: both asleep now.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
});
afterAll(async () => {
  await server?.close();
});

/** Queues a delivery job the way every send does, by SQL only; resolves when a worker took it. */
async function jobTakenAfter(startInSeconds: number): Promise<number> {
  const job = randomUUID();
  const began = performance.now();
  // A message that does not exist: the worker completes the job without sending anything.
  await server.app.db.query(
    `SELECT enqueue_delivery_jobs(ARRAY[$1::uuid], ARRAY[$2::uuid],
                                  ARRAY[now() + $3 * interval '1s'])`,
    [job, randomUUID(), startInSeconds],
  );
  for (;;) {
    const [row] = await server.app.db.query<{ state: string }>(
      'SELECT state FROM pgboss.job WHERE id = $1',
      [job],
    );
    if (row?.state === 'completed') return performance.now() - began;
    if (performance.now() - began > 20_000) {
      throw new Error(`job still ${row?.state} after 20 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('an idle node wakes for queued work', () => {
  it('takes a job written by SQL at once, far sooner than its polling', async () => {
    expect(WORKER_POLL_SECONDS * 1000).toBeGreaterThanOrEqual(30_000);
    const ms = await jobTakenAfter(0);
    expect(ms).toBeLessThan(3_000);
  });

  it('takes a job that starts later when it starts', async () => {
    const ms = await jobTakenAfter(2);
    expect(ms).toBeGreaterThanOrEqual(2_000);
    expect(ms).toBeLessThan(5_000);
  });
});
