/**
 * The test SMSC as its own process, for crash tests and benches that must not share an event
 * loop with the server: `node tests/support/smsc-main.ts`. Prints one JSON line
 * `{"host","port"}` once listening; exits when stdin closes or on SIGTERM.
 * Settings from the environment: SMSC_PORT (0: any free port), SMSC_SYSTEM_ID (test),
 * SMSC_PASSWORD (secret), SMSC_ANSWER_DELAY_MS (0), SMSC_RECEIPT (a stat word such as DELIVRD,
 * sent after every accepted submit; unset: no receipts), SMSC_RECEIPT_DELAY_MS (0),
 * SMSC_REDELIVER_RECEIPTS (1: receipts not acknowledged go again to the next bind, as real
 * SMSCs store and forward them).
 * A line `stats` on stdin prints one JSON line
 * `{"stats": {submits, texts, destinations, arrivals, binds}}`: the number of submit_sm received,
 * the text and destination_addr of each and when it arrived (epoch milliseconds, fractional: the
 * same clock as Date.now() in other processes), in order.
 * A line `mo <count> <perSecond> <from> <to>` sends `count` mobile-originated deliver_sm
 * (GSM 03.38 text `mo <n>`) from `from` to `to` on every bound session, `perSecond` a second
 * (0: all at once), then prints `{"mo": {sent, seconds}}`.
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
  redeliverReceipts: env.SMSC_REDELIVER_RECEIPTS === '1',
});
console.log(JSON.stringify({ host: smsc.host, port: smsc.port }));

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await smsc.close();
  process.exit(0);
}
let buffered = '';
process.stdin.setEncoding('utf8').on('data', (chunk: string) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, newline).trim();
    buffered = buffered.slice(newline + 1);
    if (line.startsWith('mo ')) void sendMo(line);
    else if (line === 'stats') {
      console.log(
        JSON.stringify({
          stats: {
            submits: smsc.submits.length,
            texts: smsc.submits.map((s) => s.text),
            destinations: smsc.submits.map((s) => s.destinationAddr),
            arrivals: smsc.submits.map(
              (s) => performance.timeOrigin + s.receivedAt,
            ),
            binds: smsc.binds.length,
          },
        }),
      );
    }
  }
});
process.stdin.on('end', () => void stop());

/** Sends the `mo` line's messages, paced in 10 ms steps, then reports how long that took. */
async function sendMo(line: string) {
  const [, count, perSecond, from, to] = line.split(/\s+/);
  const total = Number(count);
  const rate = Number(perSecond);
  const started = performance.now();
  for (let sent = 0; sent < total;) {
    const due =
      rate > 0
        ? Math.min(
            total,
            Math.ceil(((performance.now() - started) / 1000) * rate) + 1,
          )
        : total;
    for (; sent < due; sent++) {
      smsc.sendDeliverSm({
        source_addr: from,
        destination_addr: to,
        esm_class: 0,
        data_coding: 0,
        short_message: Buffer.from(`mo ${sent}`),
      });
    }
    if (sent < total) await new Promise((r) => setTimeout(r, 10));
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ mo: { sent: total, seconds } }));
}
process.stdin.resume();
process.on('SIGTERM', () => void stop());
