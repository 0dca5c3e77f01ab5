/**
 * `npm run bench:sms`: a customer's API client sends SMS concurrently for BENCH_SECONDS (10)
 * over BENCH_CONNECTIONS (50) connections. Prints accepted sends per second and whether the
 * final balance is exactly the start minus the sum of the prices of accepted sends (decimal
 * text read from the raw JSON, summed as scaled integers: no floating point anywhere).
 * Targets: ≥ 300/s on the embedded database, ≥ 1000/s on PostgreSQL (DATABASE_URL).
 */
import { Agent, request } from 'node:http';
import {
  BENCH_ADMIN,
  basicHeader,
  call,
  expectStatus,
  registerBenchUser,
  seconds,
  startBenchServer,
} from './server.ts';

const DURATION = seconds('BENCH_SECONDS', 10);
const CONNECTIONS = seconds('BENCH_CONNECTIONS', 50);
const CREDIT = '1000000';
const SCALE = 4;

/** Exact decimal text → integer count of 1/10^SCALE units. */
function toUnits(text: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match?.[1] || (match[2] ?? '').length > SCALE) {
    throw new Error(`not an amount with at most ${SCALE} decimals: ${text}`);
  }
  return BigInt(match[1] + (match[2] ?? '').padEnd(SCALE, '0'));
}

function fromUnits(units: bigint): string {
  const digits = units.toString().padStart(SCALE + 1, '0');
  return `${digits.slice(0, -SCALE)}.${digits.slice(-SCALE)}`;
}

/** The raw text of a top-level numeric field, before JSON.parse can round it. */
function rawNumber(json: string, field: string): string {
  const match = new RegExp(`"${field}":(-?[0-9.eE+-]+)`).exec(json);
  if (!match?.[1]) throw new Error(`no ${field} in ${json}`);
  return match[1];
}

const server = await startBenchServer();
try {
  const userAuth = await registerBenchUser(server.url);
  const created = await call(
    server.url,
    'POST',
    '/api/clients',
    { name: 'bench' },
    userAuth,
  );
  expectStatus(created, 201, 'create client');
  const client = JSON.parse(created.text) as { id: string; secret: string };
  const clientAuth = basicHeader(client.id, client.secret);
  const adminAuth = basicHeader(BENCH_ADMIN.email, BENCH_ADMIN.password);

  const balance = await call(
    server.url,
    'GET',
    `/api/admin/clients/${client.id}/balances/default`,
    undefined,
    adminAuth,
  );
  expectStatus(balance, 200, 'admin balance');
  const balanceId = (JSON.parse(balance.text) as { id: string }).id;
  const credit = await call(
    server.url,
    'POST',
    `/api/admin/clients/${client.id}/balances/${balanceId}/freecredit`,
    { amount: CREDIT },
    adminAuth,
  );
  expectStatus(credit, 200, 'free credit');

  const balancePath = `/api/clients/${client.id}/balances/default`;
  const readBalance = async () => {
    const answer = await call(
      server.url,
      'GET',
      balancePath,
      undefined,
      clientAuth,
    );
    expectStatus(answer, 200, 'balance');
    return toUnits(rawNumber(answer.text, 'amount'));
  };
  const start = await readBalance();

  let accepted = 0;
  let spent = 0n;
  let socketErrors = 0;
  const refused = new Map<number, number>();
  console.log(
    `bench:sms — ${server.database}, ${CONNECTIONS} connections, ${DURATION} s`,
  );
  // Our own loop rather than a load tool: every request sent is awaited, so the sends in
  // flight when time runs out are counted and priced too.
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const payload = JSON.stringify({
    sender: 'Bench',
    recipient: '+44 20 7946 0958',
    body: 'Your verification code is 123456.',
    reference: 'bench',
  });
  const target = new URL(`/api/clients/${client.id}/messages/sms`, server.url);
  const send = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        target,
        {
          agent,
          method: 'POST',
          headers: {
            authorization: clientAuth,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const started = performance.now();
  const deadline = started + DURATION * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        try {
          const { status, body } = await send();
          if (status === 201) {
            accepted += 1;
            spent += toUnits(rawNumber(body, 'price'));
          } else {
            refused.set(status, (refused.get(status) ?? 0) + 1);
          }
        } catch {
          socketErrors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const end = await readBalance();
  const exact = start - spent === end;
  console.log(
    `accepted sends       ${accepted} in ${elapsed.toFixed(1)} s = ${(accepted / elapsed).toFixed(0)}/s`,
  );
  if (refused.size > 0 || socketErrors > 0) {
    console.log(
      `not accepted         ${[...refused].map(([s, n]) => `${n}×${s}`).join(', ') || 'none'}; socket errors ${socketErrors}`,
    );
  }
  console.log(
    `balance              start ${fromUnits(start)} − spent ${fromUnits(spent)} = ${fromUnits(start - spent)}; final ${fromUnits(end)}`,
  );
  console.log(`balance exact        ${exact ? 'yes' : 'NO'}`);
  const goal = process.env.DATABASE_URL ? 1000 : 300;
  console.log(
    `target ≥ ${goal}/s: ${accepted / elapsed >= goal ? 'met' : 'NOT met'}`,
  );
  if (!exact) process.exitCode = 1;
} finally {
  await server.stop();
}
