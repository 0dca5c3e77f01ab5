import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMessage } from '../../support/delivery.ts';
import { onPostgres } from '../../support/engine.ts';
import { smscBind, spawnFleet, WORKER_ENTRY } from '../../support/fleet.ts';
import {
  freePort,
  spawnServer,
  stopServer,
} from '../../support/spawn-server.ts';
import { startSmsc, type TestSmsc } from '../../support/smsc.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';
import { createClient, giveCredit, registerUser } from '../../support/seed.ts';

/**
 * GET /metrics (CONTRACT.md "Operating a fleet", issue 18 part 5): Prometheus text with the
 * contract's names, moving with real traffic through the test SMSC, guarded by METRICS_TOKEN or
 * loopback only.
 */
let smsc: TestSmsc;
let server: TestServer;
let receiver: http.Server;
let receiverUrl: string;

beforeAll(async () => {
  smsc = await startSmsc({ receipt: { stat: 'DELIVRD' } });
  server = await startServer(
    {
      ...smscBind(smsc),
      STATUS_CALLBACK_ALLOW_PRIVATE: 'true',
    },
    { smpp: { reconnectMinMs: 100, reconnectMaxMs: 200 } },
  );
  // Callbacks to /ok are answered 200, to /fail 500.
  receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response.writeHead(request.url === '/ok' ? 200 : 500).end(),
    );
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server?.close();
  await smsc?.close();
  receiver?.closeAllConnections();
  await new Promise((done) => receiver?.close(done));
});

/** The value of one sample (`name{labels}`) in Prometheus text, 0 when absent. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = match[2] ? match[2].split(',') : [];
    if (wanted.every((label) => have.includes(label))) return Number(match[3]);
  }
  return 0;
}

/** How far sms_messages_total{state} moved from one scrape to a later one. */
function messagesMoved(before: string, after: string, state: string): number {
  return (
    sample(after, 'sms_messages_total', { state }) -
    sample(before, 'sms_messages_total', { state })
  );
}

async function scrape(
  headers: Record<string, string> = {},
  url = server.url,
): Promise<string> {
  const response = await fetch(`${url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return response.text();
}

/** A customer whose client calls back `path` on the receiver. */
async function customer(callbackPath: string) {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  await giveCredit(server.url, client.id, 10);
  const set = await owner.http.put(`/api/clients/${client.id}`, {
    statusCallbackUrl: `${receiverUrl}${callbackPath}`,
  });
  expect(set.status).toBe(200);
  const send = async (body = 'Metrics') => {
    const sent = await owner.http.post(
      `/api/clients/${client.id}/messages/sms`,
      { sender: 'Shop', recipient: '+44 7700 900123', body },
    );
    expect(sent.status).toBe(201);
    return sent.body.id as string;
  };
  const wait = (id: string, done?: (m: any) => boolean) =>
    waitForMessage(owner.http, client.id, id, done);
  return { send, wait };
}

async function until(condition: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still not: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('GET /metrics', () => {
  it("lists the contract's metrics and the process's own", async () => {
    const text = await scrape();
    for (const name of [
      'sms_messages_total',
      'sms_queue_depth',
      'sms_submit_duration_seconds',
      'smpp_bind_up',
      'status_callback_attempts_total',
      'http_requests_total',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toContain('# TYPE sms_submit_duration_seconds histogram');
    // The bind comes up shortly after the start.
    await until(
      async () => sample(await scrape(), 'smpp_bind_up') === 1,
      'bind up',
    );
  });

  it('moves with the traffic: messages by state, submit durations, callbacks, requests', async () => {
    const before = await scrape();
    const ok = await customer('/ok');
    const failing = await customer('/fail');
    const ids = [await ok.send(), await ok.send(), await failing.send()];
    await ok.wait(ids[0]!);
    await ok.wait(ids[1]!);
    await failing.wait(ids[2]!);
    // Every message: ACCEPTED, SUBMITTED, DELIVERED, each with a callback.
    await until(async () => {
      const text = await scrape();
      return (
        sample(text, 'status_callback_attempts_total', { outcome: 'ok' }) -
          sample(before, 'status_callback_attempts_total', {
            outcome: 'ok',
          }) >=
          6 &&
        sample(text, 'status_callback_attempts_total', {
          outcome: 'failed',
        }) -
          sample(before, 'status_callback_attempts_total', {
            outcome: 'failed',
          }) >=
          1
      );
    }, 'callbacks counted');
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('sms_messages_total', { state: 'ACCEPTED' })).toBe(3);
    expect(moved('sms_messages_total', { state: 'SUBMITTED' })).toBe(3);
    expect(moved('sms_messages_total', { state: 'DELIVERED' })).toBe(3);
    expect(
      moved('sms_submit_duration_seconds_count', { method: 'MELROSE_SMPP' }),
    ).toBe(3);
    expect(
      moved('sms_submit_duration_seconds_sum', { method: 'MELROSE_SMPP' }),
    ).toBeGreaterThan(0);
    expect(
      moved('http_requests_total', { method: 'POST', status: '201' }),
    ).toBeGreaterThanOrEqual(3 + 2 * 2); // 3 sends, 2 registrations, 2 clients
    expect(
      moved('http_requests_total', { method: 'GET', status: '200' }),
    ).toBeGreaterThan(0);
  }, 60_000);

  it('counts a message of several parts, whose receipts come twice each, once in its final state', async () => {
    const c = await customer('/ok');
    smsc.options.receipt = { stat: 'DELIVRD', duplicate: true };
    try {
      const before = await scrape();
      const long = 'Part of a long message. '.repeat(17).trim(); // 3 parts
      const done = await c.wait(await c.send(long));
      expect(done.segments).toBe(3);
      expect(done.state).toBe('DELIVERED');
      // Every receipt (3 parts, each twice) has been written once the duplicates are answered.
      await until(
        async () =>
          smsc.receiptAnswers.filter((a) =>
            done.attempts[0].providerMessageId.split(',').includes(a.messageId),
          ).length >= 6,
        'every receipt answered',
      );
      // Counted just after the write that settled it.
      let after = '';
      await until(async () => {
        after = await scrape();
        return messagesMoved(before, after, 'DELIVERED') >= 1;
      }, 'the delivery counted');
      expect(messagesMoved(before, after, 'SUBMITTED')).toBe(1);
      expect(messagesMoved(before, after, 'DELIVERED')).toBe(1);
    } finally {
      smsc.options.receipt = { stat: 'DELIVRD' };
    }
  }, 60_000);

  it('shows the bind down and the messages waiting in the queue while the SMSC is away', async () => {
    const c = await customer('/ok');
    await smsc.close();
    await until(
      async () => sample(await scrape(), 'smpp_bind_up') === 0,
      'bind down',
    );
    const id = await c.send();
    await c.wait(id, (m) =>
      m.attempts.some((a: any) => a.state === 'UNAVAILABLE'),
    );
    await until(
      async () => sample(await scrape(), 'sms_queue_depth') >= 1,
      'a job waiting',
    );
  }, 60_000);
});

describe('the guard of GET /metrics', () => {
  it('answers only loopback callers without METRICS_TOKEN (a proxied caller is not one)', async () => {
    const proxied = await startServer({ TRUST_PROXY: 'true' });
    try {
      expect((await fetch(`${proxied.url}/metrics`)).status).toBe(200);
      const outside = await fetch(`${proxied.url}/metrics`, {
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      expect(outside.status).toBe(403);
      expect(await outside.json()).toMatchObject({ statusCode: 403 });
    } finally {
      await proxied.close();
    }
  }, 60_000);

  it('with METRICS_TOKEN needs Authorization: Bearer <token>, even from loopback', async () => {
    const token = 'scrape-token-0123456789';
    const guarded = await startServer({ METRICS_TOKEN: token });
    try {
      const none = await fetch(`${guarded.url}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      const wrong = await fetch(`${guarded.url}/metrics`, {
        headers: { authorization: 'Bearer not-the-token-at-all' },
      });
      expect(wrong.status).toBe(403);
      const text = await scrape(
        { authorization: `Bearer ${token}` },
        guarded.url,
      );
      expect(text).toContain('# TYPE sms_messages_total counter');
    } finally {
      await guarded.close();
    }
  }, 60_000);
});

describe.skipIf(!onPostgres)(
  'GET /metrics of `npm run worker` (WORKER_PORT)',
  () => {
    it("serves the worker's own submits, bind and messages, with the same guard", async () => {
      const token = 'worker-scrape-token-0123';
      // Its own SMSC: the file's is closed by the test of a bind down.
      const workerSmsc = await startSmsc({ receipt: { stat: 'DELIVRD' } });
      const fleet = await spawnFleet(1, { DELIVERY_WORKERS: '0' });
      const port = String(await freePort());
      const worker = await spawnServer(
        {
          DATABASE_URL: fleet.databaseUrl,
          ...smscBind(workerSmsc),
          METRICS_TOKEN: token,
          WORKER_PORT: port,
          PORT: port, // where spawnServer waits for /api/health
        },
        60_000,
        WORKER_ENTRY,
      );
      try {
        const auth = { authorization: `Bearer ${token}` };
        expect((await fetch(`${worker.url}/metrics`)).status).toBe(401);
        expect(await (await fetch(`${worker.url}/api/ready`)).json()).toEqual({
          status: 'ready',
        });
        await until(
          async () =>
            sample(await scrape(auth, worker.url), 'smpp_bind_up') === 1,
          "the worker's bind up",
        );
        const before = await scrape(auth, worker.url);
        const node = fleet.nodes[0]!.url;
        const nodeBefore = await scrape({}, node);
        const owner = await registerUser(node);
        const client = await createClient(owner.http);
        await giveCredit(node, client.id, 10);
        for (let i = 0; i < 2; i++) {
          const sent = await owner.http.post(
            `/api/clients/${client.id}/messages/sms`,
            { sender: 'Shop', recipient: '+44 7700 900123', body: `W${i}` },
          );
          expect(sent.status).toBe(201);
          await waitForMessage(owner.http, client.id, sent.body.id);
        }
        // A receipt is counted once its write has committed: just after the message reads final.
        let after = '';
        const moved = (name: string, labels: Record<string, string>) =>
          sample(after, name, labels) - sample(before, name, labels);
        await until(async () => {
          after = await scrape(auth, worker.url);
          return moved('sms_messages_total', { state: 'DELIVERED' }) >= 2;
        }, 'deliveries counted');
        expect(
          moved('sms_submit_duration_seconds_count', {
            method: 'MELROSE_SMPP',
          }),
        ).toBe(2);
        expect(moved('sms_messages_total', { state: 'SUBMITTED' })).toBe(2);
        expect(moved('sms_messages_total', { state: 'DELIVERED' })).toBe(2);
        // The accept-only node counted the sends, not their delivery.
        const nodeAfter = await scrape({}, node);
        expect(messagesMoved(nodeBefore, nodeAfter, 'ACCEPTED')).toBe(2);
        expect(messagesMoved(nodeBefore, nodeAfter, 'SUBMITTED')).toBe(0);
      } finally {
        await stopServer(worker);
        await fleet.close();
        await workerSmsc.close();
      }
    }, 120_000);
  },
);
