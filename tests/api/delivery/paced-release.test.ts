// @also-on-pglite: the paced release books later seconds as deferred jobs (startAfter), woken through pg-boss's PGlite adapter.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { expectLedgerBalanced } from '../../support/ledger.ts';
import {
  adminHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../support/seed.ts';
import { startSmsc, type TestSmsc } from '../../support/smsc.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * Issue 30, finding 4 (CONTRACT "Destinations", Sending): "Scheduled single sends are paced at
 * release like batch messages: a client never hands more than maxMessagesPerSecond messages a
 * second to providers." Twelve sends accepted at 2 a second used to be released and submitted in
 * the same millisecond. Measured where it matters: the submit_sm times the SMSC records.
 */
const LIMIT = 2;
/**
 * The release counts whole seconds of the database's clock and a booked second's jobs start at
 * its first instant, picked up a little later by the workers; two releases of consecutive
 * seconds come closer than a second only by that pick-up jitter. A sliding window 800 ms wide
 * (200 ms of tolerance) holds at most LIMIT submits; unpaced, all twelve fall in one.
 */
const WINDOW_MS = 800;

let smsc: TestSmsc;
let server: TestServer;
beforeAll(async () => {
  smsc = await startSmsc({ receipt: { stat: 'DELIVRD' } });
  server = await startServer({
    SMPP_HOST: '127.0.0.1',
    SMPP_PORT: String(smsc.port),
    SMPP_SYSTEM_ID: 'test',
    SMPP_PASSWORD: 'secret',
  });
});
afterAll(async () => {
  await server?.close();
  await smsc?.close();
});

/** A funded client with `limit` messages a second (null: none), and a text only it sends. */
async function customer(limit: number | null) {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  await giveCredit(server.url, client.id, 10);
  const base = `/api/clients/${client.id}`;
  const text = `Paced ${randomUUID()}`;
  const schedule = async (sendAt: string) => {
    const sent = await owner.http.post(`${base}/messages/sms`, {
      sender: 'Shop',
      recipient: '+44 7700 900123',
      body: text,
      sendAt,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    return sent.body.id as string;
  };
  const batch = async (recipients: string[], sendAt: string) => {
    const sent = await owner.http.post(`${base}/batches`, {
      recipients,
      body: text,
      sendAt,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  };
  /** Limits are set after scheduling: the accept-time limit would spread the sends out itself. */
  const setLimit = async () => {
    const set = await adminHttp(server.url).put(
      `/api/admin/clients/${client.id}/limits`,
      { maxMessagesPerSecond: limit },
    );
    expect(set.status).toBe(200);
  };
  /** When (epoch ms) the SMSC received this client's submits, in order, once there are `n`. */
  const submitTimes = async (n: number, timeout: number) => {
    const mine = await eventually(
      () => smsc.submits.filter((s) => s.text === text),
      (list) => list.length >= n,
      { what: `${n} submits`, timeout, interval: 50 },
    );
    expect(mine).toHaveLength(n);
    // receivedAt is performance.now(): on the epoch's clock to compare with sendAt.
    return mine
      .map((s) => performance.timeOrigin + s.receivedAt)
      .sort((a, b) => a - b);
  };
  const delivered = (n: number) =>
    eventually(
      async () =>
        (await owner.http.get(`${base}/messages?state=DELIVERED&count=1`)).body
          .total as number,
      (total) => total === n,
      { what: `${n} delivered`, timeout: 15_000, interval: 100 },
    );
  return { client, schedule, batch, setLimit, submitTimes, delivered };
}

/** The most submits in any window of `width` ms starting at a submit. */
function busiestWindow(times: number[], width: number): number {
  return Math.max(
    ...times.map((t) => times.filter((u) => u >= t && u < t + width).length),
  );
}

/** A sendAt at the start of a second a little ahead, so the first release is early in it. */
function nextSecondsAhead(seconds: number): string {
  return new Date(
    Math.ceil(Date.now() / 1000) * 1000 + seconds * 1000,
  ).toISOString();
}

describe('scheduled single sends at release', () => {
  it('are handed to the provider at most maxMessagesPerSecond a second', async () => {
    const c = await customer(LIMIT);
    const sendAt = nextSecondsAhead(2);
    for (let i = 0; i < 12; i++) await c.schedule(sendAt);
    await c.setLimit();

    const times = await c.submitTimes(12, 20_000);
    expect(times[0]).toBeGreaterThanOrEqual(Date.parse(sendAt) - 50);
    expect(busiestWindow(times, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    // Six seconds' worth: the first pair at sendAt, the last five seconds later.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(
      5 * 1000 - (1000 - WINDOW_MS),
    );
    await c.delivered(12);
    // Waiting is neither a failure nor a refund: twelve debits, nothing back.
    await expectLedgerBalanced(server);
  });

  it('share the limit with a batch due at the same time', async () => {
    const c = await customer(LIMIT);
    const sendAt = nextSecondsAhead(2);
    for (let i = 0; i < 4; i++) await c.schedule(sendAt);
    await c.batch(
      [
        '+44 7700 900201',
        '+44 7700 900202',
        '+44 7700 900203',
        '+44 7700 900204',
      ],
      sendAt,
    );
    await c.setLimit();

    const times = await c.submitTimes(8, 20_000);
    expect(busiestWindow(times, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(
      3 * 1000 - (1000 - WINDOW_MS),
    );
    await c.delivered(8);
    await expectLedgerBalanced(server);
  });

  it('of a client without a limit all go at sendAt', async () => {
    const c = await customer(null);
    const sendAt = nextSecondsAhead(2);
    for (let i = 0; i < 12; i++) await c.schedule(sendAt);

    const times = await c.submitTimes(12, 10_000);
    expect(times[0]).toBeGreaterThanOrEqual(Date.parse(sendAt) - 50);
    // One release: all twelve within a second of the first (no booked later second).
    expect(times.at(-1)! - times[0]!).toBeLessThan(1000);
    await c.delivered(12);
    await expectLedgerBalanced(server);
  });
});
