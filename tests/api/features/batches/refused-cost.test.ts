import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerBalanced } from '../../../support/ledger.ts';
import {
  createClient,
  giveCredit,
  registerUser,
  setPrice,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * Issue 30, finding 5: a batch the balance cannot pay even at the cheapest price there is (the
 * cheapest list entry, or SMS_PRICE) is refused (402) before each recipient is priced, so a
 * zero-balance client's 10,000-recipient batch costs a fraction of one priced and then refused.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SMS_PRICE: '0.05' });
  // Some list for each recipient's lookup to walk, and the cheapest price there is.
  for (let i = 0; i < 50; i += 1) {
    await setPrice(server.url, `9${String(i).padStart(2, '0')}`, {
      name: `Land ${i}`,
      pricePerSegment: '0.2',
    });
  }
  await setPrice(server.url, '4477', {
    name: 'Cheap land',
    pricePerSegment: '0.01',
  });
});
afterAll(async () => server?.close());

async function customer(credit: string | null) {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  if (credit !== null) await giveCredit(server.url, client.id, credit);
  const base = `/api/clients/${client.id}`;
  const send = (recipients: string[]) =>
    owner.http.post(`${base}/batches`, { recipients, body: 'Hello' });
  const balance = async () =>
    (await owner.http.get(`${base}/balances/default`)).body.amount as number;
  const messageCount = async () =>
    (await owner.http.get(`${base}/messages?count=1`)).body.total as number;
  return { send, balance, messageCount };
}

const recipients = Array.from(
  { length: 10_000 },
  (_, i) => `3361${String(i).padStart(7, '0')}`,
);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe('a batch beyond the balance at the cheapest price', () => {
  it('is refused 402 with nothing charged, for a fraction of the cost of pricing each recipient', async () => {
    const broke = await customer(null);
    // Enough for 10,000 at the cheapest price (0.01), not at theirs (SMS_PRICE, 0.05): its
    // batch is priced recipient by recipient and then refused by the debit, as every refused
    // batch was before.
    const priced = await customer('100');
    const timed = async (who: typeof broke) => {
      const started = performance.now();
      const answer = await who.send(recipients);
      const took = performance.now() - started;
      expect(answer.status).toBe(402);
      expect(answer.body.message).toBe('Not enough balance');
      return took;
    };
    // Warm both paths, then alternate so the shared machine's noise hits both alike.
    await timed(broke);
    await timed(priced);
    const bounded: number[] = [];
    const full: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      bounded.push(await timed(broke));
      full.push(await timed(priced));
    }
    // Before the bound both took the same (a ratio of about 1).
    expect(
      median(bounded) / median(full),
      `bounded ${bounded.map(Math.round)} ms, priced ${full.map(Math.round)} ms`,
    ).toBeLessThan(0.5);
    for (const [who, credit] of [
      [broke, 0],
      [priced, 100],
    ] as const) {
      expect(await who.balance()).toBe(credit);
      expect(await who.messageCount()).toBe(0);
    }
    await expectLedgerBalanced(server);
  });

  it('still sends what the balance pays at the cheapest price, and refuses a cent less', async () => {
    const exact = await customer('0.02');
    expect((await exact.send(['447700900001', '447700900002'])).status).toBe(
      201,
    );
    expect(await exact.balance()).toBe(0);
    const short = await customer('0.0199');
    const refused = await short.send(['447700900001', '447700900002']);
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe('Not enough balance');
    // Enough at the cheapest price, not at the recipients' own: the debit still refuses.
    const dearer = await customer('0.02');
    const priced = await dearer.send(['33612345678', '33612345679']);
    expect(priced.status).toBe(402);
    expect(await dearer.balance()).toBe(0.02);
    expect(await dearer.messageCount()).toBe(0);
    await expectLedgerBalanced(server);
  });
});
