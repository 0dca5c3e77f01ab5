/**
 * `npm run bench:batch` (issue 20): a customer sends BENCH_RUNS (3) batches of 10,000 distinct
 * recipients, one request each, and the time from request to its 201 is printed per batch. The
 * batch is priced per recipient, debited once and written (batch, messages, ledger rows, delivery
 * jobs) in one transaction. Budget: every batch accepted within 2 s on PostgreSQL (DATABASE_URL,
 * a scratch database: the bench adds rows) and within BATCH_BUDGET_EMBEDDED_MS on the embedded
 * database; above it, exit 1. Delivery runs meanwhile (the simulator), as it would in service.
 * The balance is checked to be exactly the start minus the batches' amounts.
 */
import {
  call,
  expectStatus,
  fundedBenchClient,
  seconds,
  startBenchServer,
} from './server.ts';

const RUNS = seconds('BENCH_RUNS', 3);
const RECIPIENTS = 10_000;
const CREDIT = 100_000;
const BUDGET_MS = process.env.DATABASE_URL
  ? 2000
  : seconds('BATCH_BUDGET_EMBEDDED_MS', 4000);

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
    const batch = JSON.parse(sent.text) as { total: number; amount: number };
    if (batch.total !== RECIPIENTS) {
      throw new Error(`batch ${run + 1} has ${batch.total} messages`);
    }
    charged += Math.round(batch.amount * 1e4);
    times.push(ms);
    console.log(
      `batch ${run + 1}: ${RECIPIENTS.toLocaleString('en')} recipients accepted in ${Math.round(ms)} ms`,
    );
  }

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
      `worst ${Math.round(worst)} ms (budget ${BUDGET_MS} ms), balance exact: ${exact}`,
  );
  failed = worst > BUDGET_MS || !exact;
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
