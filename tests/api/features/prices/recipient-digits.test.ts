import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMessage } from '../../../support/delivery.ts';
import { smscBind } from '../../../support/fleet.ts';
import { expectLedgerBalanced } from '../../../support/ledger.ts';
import {
  createClient,
  giveCredit,
  registerUser,
  setPrice,
} from '../../../support/seed.ts';
import { startSmsc, type TestSmsc } from '../../../support/smsc.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * CONTRACT "Recipient digits" (issue 30, finding 2): a leading `00` is the international prefix,
 * dropped before pricing, permissions, duplicates, the stored message and the SMSC see the
 * digits; what still begins with 0 is a national number, refused with 400.
 */
let smsc: TestSmsc;
let server: TestServer;
beforeAll(async () => {
  smsc = await startSmsc({ receipt: { stat: 'DELIVRD' } });
  server = await startServer({ SMS_PRICE: '0.05', ...smscBind(smsc) });
  await setPrice(server.url, '4479', {
    name: 'United Kingdom mobile',
    pricePerSegment: '0.07',
    blocked: true,
  });
  await setPrice(server.url, '881', {
    name: 'Satellite',
    pricePerSegment: '2',
    blocked: true,
  });
  await setPrice(server.url, '4477', {
    name: 'United Kingdom other',
    pricePerSegment: '0.03',
  });
  await setPrice(server.url, '336', {
    name: 'France mobile',
    pricePerSegment: '0.04',
  });
});
afterAll(async () => {
  await server?.close();
  await smsc?.close();
});

async function customer() {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  await giveCredit(server.url, client.id, '10');
  const base = `/api/clients/${client.id}`;
  const send = (recipient: string) =>
    owner.http.post(`${base}/messages/sms`, {
      sender: 'Shop',
      recipient,
      body: 'Hello',
    });
  const batch = (recipients: string[]) =>
    owner.http.post(`${base}/batches`, { recipients, body: 'Hello' });
  const quote = (recipient: string) =>
    owner.http.get(
      `${base}/quote?recipient=${encodeURIComponent(recipient)}&body=Hi`,
    );
  const balance = async () =>
    (await owner.http.get(`${base}/balances/default`)).body.amount as number;
  const messageCount = async () =>
    (await owner.http.get(`${base}/messages?count=1`)).body.total as number;
  return { ...owner, client, send, batch, quote, balance, messageCount };
}

describe('a leading 00 is the international prefix', () => {
  it('refuses 00-spelled blocked destinations with 403, charging nothing', async () => {
    const c = await customer();
    for (const [typed, digits, prefix] of [
      ['00447911123456', '447911123456', '4479'],
      ['+00 44 7911 123456', '447911123456', '4479'],
      ['008816123456', '8816123456', '881'],
    ] as const) {
      const refused = await c.send(typed);
      expect(refused.status, typed).toBe(403);
      expect(refused.body.message, typed).toContain(`+${digits} (`);
      expect(refused.body.message, typed).toContain(`prefix ${prefix}`);
      const quoted = await c.quote(typed);
      expect(quoted.status, typed).toBe(200);
      expect(quoted.body, typed).toMatchObject({
        recipient: digits,
        pricePrefix: prefix,
        allowed: false,
      });
    }
    const inBatch = await c.batch(['447700900123', '0044 7911 123456']);
    expect(inBatch.status).toBe(403);
    expect(inBatch.body.message).toContain(
      '+447911123456, United Kingdom mobile',
    );
    expect(await c.balance()).toBe(10);
    expect(await c.messageCount()).toBe(0);
    await expectLedgerBalanced(server);
  });

  it('counts 0033… and 33… as one recipient of a batch, priced by its prefix', async () => {
    const c = await customer();
    const created = await c.batch([
      '0033612345678',
      '33612345678',
      '+33 612 345 678',
    ]);
    expect(created.status).toBe(201);
    expect(created.body.total).toBe(1);
    expect(await c.balance()).toBe(9.96);
    expect(await c.messageCount()).toBe(1);
    await expectLedgerBalanced(server);
  });

  it('stores, quotes, prices and submits the normalised digits', async () => {
    const c = await customer();
    const quoted = await c.quote('0044 7700 900123');
    expect(quoted.body).toMatchObject({
      recipient: '447700900123',
      pricePrefix: '4477',
      pricePerSegment: 0.03,
      allowed: true,
    });
    const before = smsc.submits.length;
    const sent = await c.send('0044 7700 900123');
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      recipient: '447700900123',
      pricePrefix: '4477',
      price: 0.03,
    });
    const done = await waitForMessage(c.http, c.client.id, sent.body.id);
    expect(done.state).toBe('DELIVERED');
    const submits = smsc.submits.slice(before);
    expect(submits.map((s) => s.destinationAddr)).toEqual(['447700900123']);
    expect(await c.balance()).toBe(9.97);
    await expectLedgerBalanced(server);
  });
});

describe('a national number', () => {
  it('is refused with 400 naming it, by the send, the quote and a batch, charging nothing', async () => {
    const c = await customer();
    for (const typed of ['07911123456', '000447911123456']) {
      const refused = await c.send(typed);
      expect(refused.status, typed).toBe(400);
      expect(refused.body.message, typed).toContain(
        'Recipient is a national number (it begins with 0): give it with its country code',
      );
      const quoted = await c.quote(typed);
      expect(quoted.status, typed).toBe(400);
      expect(quoted.body.message, typed).toContain('national number');
    }
    const one = await c.batch(['447700900123', '07911123456']);
    expect(one.status).toBe(400);
    expect(one.body.message).toBe(
      'Recipient 1 ("07911123456") is a national number (it begins with 0): give it with its country code',
    );
    const two = await c.batch(['07911123456', '447700900123', '0 612 345 678']);
    expect(two.body.message).toBe(
      'Recipients 0 ("07911123456"), 2 ("0 612 345 678") are national numbers (they begin with 0): give them with their country code',
    );
    // A malformed entry is still named with the spec's own text.
    const short = await c.send('012');
    expect(short.body.message).toContain(
      'Recipient must be a phone number of 6 to 15 digits',
    );
    expect(await c.balance()).toBe(10);
    expect(await c.messageCount()).toBe(0);
  });
});
