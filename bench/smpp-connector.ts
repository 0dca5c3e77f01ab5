/**
 * `node bench/smpp-connector.ts`: the SMPP connector's own ceiling, no database. The test SMSC
 * runs in its own process (tests/support/smsc-main.ts), so it does not share the connector's
 * event loop, and answers every submit_sm at once. The connector (window BENCH_WINDOW, 10) is
 * kept busy by BENCH_CONCURRENCY (200) submit() calls for BENCH_SECONDS (5). Prints accepted
 * submits/s. With BENCH_RECEIPTS=1 the SMSC also sends a DELIVRD receipt for each one.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createSmppConnector } from '../src/server/delivery/smpp/connector.ts';
import { seconds } from './server.ts';

const SYSTEM_ID = 'bench';
const PASSWORD = 'bench-pass';

await main();

async function main() {
  const duration = seconds('BENCH_SECONDS', 5);
  const concurrency = seconds('BENCH_CONCURRENCY', 200);
  const window = seconds('BENCH_WINDOW', 10);

  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('../tests/support/smsc-main.ts', import.meta.url))],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...process.env,
        SMSC_SYSTEM_ID: SYSTEM_ID,
        SMSC_PASSWORD: PASSWORD,
        ...(process.env.BENCH_RECEIPTS === '1'
          ? { SMSC_RECEIPT: 'DELIVRD' }
          : {}),
      },
    },
  );
  const firstLine = await new Promise<string>((resolve) => {
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const { port } = JSON.parse(firstLine) as { port: number };

  const connector = createSmppConnector({
    host: '127.0.0.1',
    port,
    systemId: SYSTEM_ID,
    password: PASSWORD,
    window,
    logger: pino({ level: 'warn' }),
  });
  let receipts = 0;
  connector.onReceipt(async () => {
    receipts += 1;
  });

  // Warm up: the bind, and the JIT.
  await connector.submit({
    messageId: 'warm-up',
    from: 'Bench',
    to: '+447700900000',
    text: 'warm up',
    encoding: 'GSM-7',
  });

  let submitted = 0;
  let failed = 0;
  let sequence = 0;
  const start = performance.now();
  const end = start + duration * 1000;
  async function worker() {
    while (performance.now() < end) {
      const outcome = await connector.submit({
        messageId: `bench-${++sequence}`,
        from: 'Bench',
        to: `+4477009${String(sequence % 100000).padStart(5, '0')}`,
        text: `Benchmark message number ${sequence}, {with} an escape €`,
        encoding: 'GSM-7',
      });
      if (outcome.kind === 'submitted') submitted += 1;
      else failed += 1;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - start) / 1000;

  await connector.close();
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));

  console.log(
    `SMPP connector: ${Math.round(submitted / elapsed)} submits/s ` +
      `(${submitted} accepted, ${failed} not, in ${elapsed.toFixed(1)} s; ` +
      `window ${window}, ${concurrency} concurrent submit() calls` +
      `${process.env.BENCH_RECEIPTS === '1' ? `, ${receipts} receipts handled` : ''})`,
  );
}
