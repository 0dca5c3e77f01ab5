/**
 * The test SMSC as its own process, for crash tests and benches that must not share an event
 * loop with the server: `node tests/support/smsc-main.ts`. Prints one JSON line
 * `{"host","port"}` once listening; exits when stdin closes or on SIGTERM.
 * Settings from the environment: SMSC_PORT (0: any free port), SMSC_SYSTEM_ID (test),
 * SMSC_PASSWORD (secret), SMSC_ANSWER_DELAY_MS (0), SMSC_RECEIPT (a stat word such as DELIVRD,
 * sent after every accepted submit; unset: no receipts), SMSC_RECEIPT_DELAY_MS (0).
 */
import { startSmsc } from './smsc.ts';

const env = process.env;
const smsc = await startSmsc({
  port: Number(env.SMSC_PORT ?? 0),
  systemId: env.SMSC_SYSTEM_ID ?? 'test',
  password: env.SMSC_PASSWORD ?? 'secret',
  answerDelayMs: Number(env.SMSC_ANSWER_DELAY_MS ?? 0),
  receipt: env.SMSC_RECEIPT
    ? {
        stat: env.SMSC_RECEIPT,
        delayMs: Number(env.SMSC_RECEIPT_DELAY_MS ?? 0),
      }
    : null,
});
console.log(JSON.stringify({ host: smsc.host, port: smsc.port }));

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await smsc.close();
  process.exit(0);
}
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
