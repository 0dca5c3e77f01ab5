/**
 * `npm run bench:batch` (issue 20): a customer sends BENCH_RUNS (3) batches of 10,000 distinct
 * recipients, one request each, and the time from request to its 201 is printed per batch. The
 * batch is priced per recipient, debited once and written (batch, messages, ledger rows, delivery
 * jobs) in one transaction. Budget: every batch accepted within 2 s on PostgreSQL (DATABASE_URL,
 * a scratch database: the bench adds rows) and within BATCH_BUDGET_EMBEDDED_MS (4000) on the
 * embedded database; above it, exit 1. Each batch is sent once the one before is delivered (the
 * simulator), and how long that took is printed too. Then one more batch of 10,000 is scheduled
 * an hour ahead and cancelled: the cancel's time (10,000 messages SCHEDULED → CANCELED, each
 * refunded) is printed, no budget. The balance is checked to be exactly the start minus the
 * delivered batches' amounts (the cancelled one refunded in full).
 */
import {
  call,
  expectStatus,
  fundedBenchClient,
  seconds,
  startBenchServer,
} from './server.ts';
import { reportFigures } from './report.ts';

const RUNS = seconds('BENCH_RUNS', 3);
const RECIPIENTS = 10_000;
const CREDIT = 100_000;
const BUDGET_MS = process.env.DATABASE_URL
  ? 2000
  : seconds('BATCH_BUDGET_EMBEDDED_MS', 4000);

/** Milliseconds from now until every message of the batch is DELIVERED (polled each second). */
async function deliveredAfter(
  clientId: string,
  batchId: string,
  auth: string,
): Promise<number> {
  const started = performance.now();
  for (;;) {
    const answer = await call(
      server.url,
      'GET',
      `/api/clients/${clientId}/batches/${batchId}`,
      undefined,
      auth,
    );
    expectStatus(answer, 200, 'batch');
    const { states } = JSON.parse(answer.text) as {
      states: Record<string, number>;
    };
    if (states.DELIVERED === RECIPIENTS) return performance.now() - started;
    if (performance.now() - started > 300_000) {
      throw new Error(`batch ${batchId} not delivered: ${answer.text}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const server = await startBenchServer();
let failed = false;
try {
  const { userAuth, clientId } = await fundedBenchClient(
    server.url,
    String(CREDIT),
  );

  const times: number[] = [];
  let charged = 0;
  for (let run = 0; run < RUNS; run++) {
    // Distinct numbers in every run, as a campaign's list would be.
    const recipients = Array.from(
      { length: RECIPIENTS },
      (_, i) => `+44 7${run} ${String(i).padStart(7, '0')}`,
    );
    const started = performance.now();
    const sent = await call(
      server.url,
      'POST',
      `/api/clients/${clientId}/batches`,
      { recipients, body: 'Your appointment is tomorrow at 10:00.' },
      userAuth,
    );
    const ms = performance.now() - started;
    expectStatus(sent, 201, `batch ${run + 1}`);
    const batch = JSON.parse(sent.text) as {
      id: string;
      total: number;
      amount: number;
    };
    if (batch.total !== RECIPIENTS) {
      throw new Error(`batch ${run + 1} has ${batch.total} messages`);
    }
    charged += Math.round(batch.amount * 1e4);
    times.push(ms);
    // The next batch is timed on a server at rest again, as the budget means: wait until the
    // simulator has delivered this one (which says how long delivery of 10,000 takes).
    const delivered = await deliveredAfter(clientId, batch.id, userAuth);
    console.log(
      `batch ${run + 1}: ${RECIPIENTS.toLocaleString('en')} recipients accepted in ${Math.round(ms)} ms, all delivered ${Math.round(delivered / 1000)} s later`,
    );
  }

  // A scheduled batch cancelled whole: every message refunded through the ledger.
  const scheduled = await call(
    server.url,
    'POST',
    `/api/clients/${clientId}/batches`,
    {
      recipients: Array.from(
        { length: RECIPIENTS },
        (_, i) => `+44 79 ${String(i).padStart(7, '0')}`,
      ),
      body: 'Your appointment is tomorrow at 10:00.',
      sendAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
    userAuth,
  );
  expectStatus(scheduled, 201, 'scheduled batch');
  const { id: scheduledId } = JSON.parse(scheduled.text) as { id: string };
  const cancelStarted = performance.now();
  const cancelled = await call(
    server.url,
    'POST',
    `/api/clients/${clientId}/batches/${scheduledId}/cancel`,
    undefined,
    userAuth,
  );
  const cancelMs = performance.now() - cancelStarted;
  expectStatus(cancelled, 200, 'cancel');
  const { states } = JSON.parse(cancelled.text) as {
    states: Record<string, number>;
  };
  if (states.CANCELED !== RECIPIENTS) {
    throw new Error(`cancel left ${cancelled.text}`);
  }
  console.log(
    `scheduled batch of ${RECIPIENTS.toLocaleString('en')}: cancelled and refunded in ${Math.round(cancelMs)} ms`,
  );

  const balance = await call(
    server.url,
    'GET',
    `/api/clients/${clientId}/balances/default`,
    undefined,
    userAuth,
  );
  const amount = Math.round(
    (JSON.parse(balance.text) as { amount: number }).amount * 1e4,
  );
  const exact = amount === CREDIT * 1e4 - charged;
  const worst = Math.max(...times);
  console.log(
    `bench:batch — ${server.database}: ${RUNS} batches of ${RECIPIENTS.toLocaleString('en')}, ` +
      `worst ${Math.round(worst)} ms (budget ${BUDGET_MS} ms), cancel of a scheduled batch ` +
      `${Math.round(cancelMs)} ms, balance exact: ${exact}`,
  );
  reportFigures('batch', [
    {
      name: `${RECIPIENTS.toLocaleString('en')} recipients accepted, worst of ${RUNS} (${server.database})`,
      value: Math.round(worst),
      unit: 'ms',
      target: { op: '<=', value: BUDGET_MS },
    },
    {
      name: 'cancel of a scheduled batch',
      value: Math.round(cancelMs),
      unit: 'ms',
    },
    {
      name: 'balance exact (1 = yes)',
      value: exact ? 1 : 0,
      unit: '',
      target: { op: '>=', value: 1 },
    },
  ]);
  failed = worst > BUDGET_MS || !exact;
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
