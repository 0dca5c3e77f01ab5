/**
 * `npm run bench:inbound`: two-way messaging's cost (issue 32). Through one SMPP bind to the test
 * SMSC in its own process (answering submits at once with DELIVRD receipts), on the embedded
 * database or on DATABASE_URL, with inbound callbacks on (a local receiver answering 204):
 *
 * 1. Inbound rate: the SMSC sends BENCH_INBOUND (3000) mobile-originated deliver_sm at once to a
 *    number the client holds; counted in the log (GET …/inbound total) from the first send to the
 *    last one stored, and at the callback receiver.
 * 2. What inbound costs sends: sends per second over BENCH_SECONDS (5) on BENCH_CONNECTIONS (32)
 *    connections, alone, then with BENCH_INBOUND_RATE (500) inbound a second alongside; their
 *    ratio (1.00: inbound costs sends nothing).
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSmscProcess } from '../tests/support/smsc-process.ts';
import { reportFigures } from './report.ts';
import {
  BENCH_ADMIN,
  basicHeader,
  call,
  expectStatus,
  fundedBenchClient,
  seconds,
  smsSender,
  startBenchServer,
} from './server.ts';

const INBOUND = seconds('BENCH_INBOUND', 3000);
const INBOUND_RATE = seconds('BENCH_INBOUND_RATE', 500);
const SEND_SECONDS = seconds('BENCH_SECONDS', 5);
const CONNECTIONS = seconds('BENCH_CONNECTIONS', 32);
const NUMBER = '447700900999';
const SENDER = '447700900555';

// The callback receiver: counts inbound events.
let inboundCallbacks = 0;
let lastCallbackAt = 0;
const receiver = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    if (body.includes('"type":"inbound"')) {
      inboundCallbacks++;
      lastCallbackAt = Date.now();
    }
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/inbound`;

const smsc = await startSmscProcess({ SMSC_RECEIPT: 'DELIVRD' });
const server = await startBenchServer({
  SMPP_HOST: smsc.host,
  SMPP_PORT: String(smsc.port),
  SMPP_SYSTEM_ID: 'test',
  SMPP_PASSWORD: 'secret',
  STATUS_CALLBACK_ALLOW_PRIVATE: 'true',
});

async function until(what: string, done: () => Promise<boolean>) {
  const deadline = Date.now() + 300_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

try {
  const admin = basicHeader(BENCH_ADMIN.email, BENCH_ADMIN.password);
  const { userAuth, clientId, clientAuth } = await fundedBenchClient(
    server.url,
    '1000000',
  );
  expectStatus(
    await call(
      server.url,
      'PUT',
      `/api/admin/numbers/${NUMBER}`,
      { clientId },
      admin,
    ),
    200,
    'assign the number',
  );
  expectStatus(
    await call(
      server.url,
      'PUT',
      `/api/clients/${clientId}`,
      { name: 'bench', inboundCallbackUrl: receiverUrl },
      userAuth,
    ),
    200,
    'set the inbound callback URL',
  );
  await until('the server to bind', async () => (await smsc.stats()).binds > 0);
  const storedInbound = async () => {
    const answer = await call(
      server.url,
      'GET',
      `/api/clients/${clientId}/inbound?count=1`,
      undefined,
      clientAuth,
    );
    return (JSON.parse(answer.text) as { total: number }).total;
  };
  console.log(
    `bench:inbound — ${server.database}, ${INBOUND} inbound through one SMPP bind, callbacks on`,
  );

  // 1. Inbound into the log.
  const started = Date.now();
  await smsc.sendMo(INBOUND, 0, SENDER, NUMBER);
  await until('every inbound message stored', async () => {
    return (await storedInbound()) >= INBOUND;
  });
  const storedSeconds = (Date.now() - started) / 1000;
  await until(
    'every inbound callback',
    async () => inboundCallbacks >= INBOUND,
  );
  const callbackSeconds = (lastCallbackAt - started) / 1000;
  const inboundRate = Math.round(INBOUND / storedSeconds);
  const callbackRate = Math.round(INBOUND / callbackSeconds);
  console.log(
    `inbound stored       ${INBOUND} in ${storedSeconds.toFixed(2)} s = ${inboundRate}/s`,
  );
  console.log(
    `inbound callbacks    ${inboundCallbacks} received in ${callbackSeconds.toFixed(2)} s = ${callbackRate}/s`,
  );

  // 2. Sends per second, alone and with inbound alongside.
  const { send, close: closeSender } = smsSender(
    server.url,
    clientId,
    clientAuth,
    CONNECTIONS,
  );
  const sendsPerSecond = async () => {
    const until = performance.now() + SEND_SECONDS * 1000;
    let sent = 0;
    let refused = 0;
    const begun = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < until) {
          if ((await send(sent++)) !== 201) refused++;
        }
      }),
    );
    if (refused > 0) throw new Error(`${refused} sends were refused`);
    return sent / ((performance.now() - begun) / 1000);
  };
  const alone = await sendsPerSecond();
  const before = await storedInbound();
  const flood = smsc.sendMo(
    INBOUND_RATE * SEND_SECONDS,
    INBOUND_RATE,
    SENDER,
    NUMBER,
  );
  const alongside = await sendsPerSecond();
  await flood;
  await until('the alongside inbound stored', async () => {
    return (await storedInbound()) >= before + INBOUND_RATE * SEND_SECONDS;
  });
  closeSender();
  const ratio = alongside / alone;
  console.log(
    `sends alone          ${Math.round(alone)}/s (${CONNECTIONS} connections, ${SEND_SECONDS} s)`,
  );
  console.log(
    `sends with inbound   ${Math.round(alongside)}/s with ${INBOUND_RATE} inbound/s alongside: ${ratio.toFixed(2)}× alone`,
  );
  reportFigures('inbound', [
    {
      name: `inbound stored through one SMPP bind, callbacks on (${server.database})`,
      value: inboundRate,
      unit: '/s',
    },
    { name: 'inbound callbacks delivered', value: callbackRate, unit: '/s' },
    { name: 'sends alone', value: Math.round(alone), unit: '/s' },
    {
      name: `sends with ${INBOUND_RATE} inbound/s alongside / alone`,
      value: Number(ratio.toFixed(2)),
      unit: '×',
    },
  ]);
} finally {
  await server.stop();
  await smsc.stop();
  receiver.close();
  if (server.dataDir) rmSync(server.dataDir, { recursive: true, force: true });
}
