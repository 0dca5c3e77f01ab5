// @also-on-pglite: the send path's SQL (functions, locks, transactions) on PGlite's single connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../../support/http.ts';
import {
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
  setRoles,
} from '../../../support/seed.ts';
import { expectLedgerBalanced } from '../../../support/ledger.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

/** A signed-in user with one client holding `credit`. */
async function funded(credit: number | string = 10) {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  if (Number(credit) > 0) await giveCredit(server.url, client.id, credit);
  const send = (body: Record<string, unknown>, http: HttpClient = owner.http) =>
    http.post(`/api/clients/${client.id}/messages/sms`, {
      sender: 'Shop',
      recipient: '447700900123',
      body: 'Hello',
      ...body,
    });
  const balance = async () =>
    (await owner.http.get(`/api/clients/${client.id}/balances/default`)).body
      .amount as number;
  return { ...owner, client, send, balance };
}

describe('POST /api/clients/{clientId}/messages/sms', () => {
  it('answers 201 with the stored message and debits segments × 0.05', async () => {
    const { client, send, balance } = await funded(1);
    const sent = await send({ body: 'Hello there', reference: 'order-42' });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      id: expect.any(String),
      clientId: client.id,
      sender: 'Shop',
      recipient: '447700900123',
      body: 'Hello there',
      reference: 'order-42',
      state: 'ACCEPTED',
      error: null,
      deliveryMethod: null,
      simulated: false,
      encoding: 'GSM-7',
      segments: 1,
      price: 0.05,
      pricePerSegment: 0.05,
      pricePrefix: null,
      currency: 'EUR',
      batchId: null,
      sendAt: null,
      dateCreated: expect.any(String),
      dateUpdated: expect.any(String),
    });
    expect(await balance()).toBe(0.95);
  });

  it('accepts a message without a reference (stored as empty)', async () => {
    const { send } = await funded();
    const sent = await send({ body: 'No reference' });
    expect(sent.status).toBe(201);
    expect(sent.body.reference).toBe('');
  });

  describe('pricing by segments', () => {
    let account: Awaited<ReturnType<typeof funded>>;
    beforeAll(async () => {
      account = await funded(100);
    });

    it.each([
      ['160 GSM-7 characters', 'a'.repeat(160), 'GSM-7', 1],
      ['161 GSM-7 characters', 'a'.repeat(161), 'GSM-7', 2],
      ['306 GSM-7 characters', 'a'.repeat(306), 'GSM-7', 2],
      ['307 GSM-7 characters', 'a'.repeat(307), 'GSM-7', 3],
      ['80 euro signs (extension: 2 septets each)', '€'.repeat(80), 'GSM-7', 1],
      ['81 euro signs', '€'.repeat(81), 'GSM-7', 2],
      ['159 letters and a bracket', `${'a'.repeat(159)}[`, 'GSM-7', 2],
      ['70 Cyrillic letters (UCS-2)', 'ж'.repeat(70), 'UCS-2', 1],
      ['71 Cyrillic letters', 'ж'.repeat(71), 'UCS-2', 2],
      ['35 emoji (2 UTF-16 units each)', '😀'.repeat(35), 'UCS-2', 1],
      ['36 emoji', '😀'.repeat(36), 'UCS-2', 2],
      ['one emoji in GSM text', `${'a'.repeat(69)}😀`, 'UCS-2', 2],
    ])(
      'prices %s as %s in %i segment(s)',
      async (_name, body, encoding, segments) => {
        const before = await account.balance();
        const sent = await account.send({ body });
        expect(sent.status).toBe(201);
        expect(sent.body).toMatchObject({ encoding, segments });
        // Cents as integers, so the check itself does no float sums.
        expect(Math.round(sent.body.price * 100)).toBe(segments * 5);
        const after = await account.balance();
        expect(Math.round(before * 100) - Math.round(after * 100)).toBe(
          segments * 5,
        );
      },
    );
  });

  it('accepts 10 segments and refuses 11 with 400, debiting nothing', async () => {
    const { send, balance } = await funded(10);
    expect((await send({ body: 'a'.repeat(1530) })).body.segments).toBe(10);
    expect((await send({ body: 'ж'.repeat(670) })).body.segments).toBe(10);
    expect(await balance()).toBe(9);
    for (const body of ['a'.repeat(1531), 'ж'.repeat(671), '€'.repeat(766)]) {
      const refused = await send({ body });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain('at most 10 segments');
    }
    expect(await balance()).toBe(9);
  });

  it('removes plus signs, dots, dashes and whitespace from the recipient', async () => {
    const { send } = await funded();
    const sent = await send({ recipient: ' +44 7700.900-123\t' });
    expect(sent.status).toBe(201);
    expect(sent.body.recipient).toBe('447700900123');
  });

  it('accepts 6 to 15 digits and refuses anything else with 400', async () => {
    const { send, balance } = await funded(1);
    expect((await send({ recipient: '123456' })).status).toBe(201);
    expect((await send({ recipient: '123456789012345' })).status).toBe(201);
    for (const recipient of [
      '12345',
      '1234567890123456',
      '+44 (0)7700 900123',
      '44770090012a',
      '+-. ',
    ]) {
      const refused = await send({ recipient });
      expect(refused.status, recipient).toBe(400);
      expect(refused.body.message).toContain(
        'Recipient must be a phone number of 6 to 15 digits',
      );
    }
    expect(await balance()).toBe(0.9);
  });

  it('requires sender, recipient and body, with the spec texts', async () => {
    const { send } = await funded();
    const cases: [Record<string, unknown>, string][] = [
      [{ sender: '', body: 'x' }, 'Sender cannot be empty'],
      [{ sender: '   ', body: 'x' }, 'Sender cannot be empty'],
      [{ recipient: '', body: 'x' }, 'Recipient cannot be empty'],
      [{ body: '' }, 'Body cannot be empty'],
    ];
    for (const [body, message] of cases) {
      const refused = await send(body);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ statusCode: 400, message });
    }
    const missing = await send({ sender: undefined, body: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/sender/);
    expect(missing.body.message).toMatch(/body/);
  });

  it('refuses wrong types with 400', async () => {
    const { send } = await funded();
    for (const body of [
      { body: 42 },
      { body: 'x', recipient: 447700900123 },
      { body: 'x', sender: ['Shop'] },
      { body: 'x', reference: { a: 1 } },
    ]) {
      expect((await send(body)).status).toBe(400);
    }
  });
});

describe('balance rules', () => {
  it('answers 402 when the balance is too low, and changes nothing', async () => {
    const { send, balance } = await funded('0.05');
    const refused = await send({ body: 'a'.repeat(161) }); // 2 segments: 0.10
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({
      statusCode: 402,
      error: 'Payment Required',
      code: 'insufficient_balance',
      message: 'Not enough balance',
    });
    expect(await balance()).toBe(0.05);
    // Exactly enough still goes through, and then the balance is 0.
    expect((await send({ body: 'one segment' })).status).toBe(201);
    expect(await balance()).toBe(0);
    expect((await send({ body: 'one more' })).status).toBe(402);
    expect(await balance()).toBe(0);
  });

  it('answers 402 for a client that never had credit', async () => {
    const { send, balance } = await funded(0);
    expect((await send({ body: 'hi' })).status).toBe(402);
    expect(await balance()).toBe(0);
  });

  it('lets exactly K of N concurrent sends through when the balance allows K', async () => {
    const { send, balance } = await funded('0.27'); // 5 sends of 0.05, 0.02 left
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => send({ body: `Message ${i}` })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(20);
    expect(await balance()).toBe(0.02);
    await expectLedgerBalanced(server);
  });

  it('keeps concurrent API client sends exact as well', async () => {
    const { client, send, balance } = await funded('1');
    const api = clientHttp(server.url, client);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => send({ body: 'a'.repeat(200) }, api)),
    );
    // 2 segments (0.10) each: 10 fit in 1.00.
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(20);
    expect(await balance()).toBe(0);
    await expectLedgerBalanced(server);
  });
});

describe('who may send', () => {
  it('needs ROLE_SMS_CREATE (403 without it, for the user and for their API clients)', async () => {
    const { user, client, send, balance } = await funded(1);
    await setRoles(server.url, user.id, []);
    const refused = await send({ body: 'hi' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    const api = clientHttp(server.url, client);
    expect((await send({ body: 'hi' }, api)).status).toBe(403);
    expect(await balance()).toBe(1);
    await setRoles(server.url, user.id, ['ROLE_SMS_CREATE']);
    expect((await send({ body: 'hi' })).status).toBe(201);
  });

  it('answers 404 for an unknown client and 400 for a malformed id', async () => {
    const { http } = await registerUser(server.url);
    const body = { sender: 'Shop', recipient: '447700900123', body: 'hi' };
    const unknown = await http.post(
      '/api/clients/00000000-0000-4000-8000-000000000000/messages/sms',
      body,
    );
    expect(unknown.status).toBe(404);
    const bad = await http.post('/api/clients/42/messages/sms', body);
    expect(bad.status).toBe(400);
  });

  it("answers 404 for another user's client and debits nothing", async () => {
    const victim = await funded(1);
    const intruder = await registerUser(server.url);
    const answer = await victim.send({ body: 'hi' }, intruder.http);
    expect(answer.status).toBe(404);
    expect(await victim.balance()).toBe(1);
  });
});

describe('configured price and currency', () => {
  let priced: TestServer;
  beforeAll(async () => {
    priced = await startServer({ SMS_PRICE: '0.0725', CURRENCY: 'GBP' });
  });
  afterAll(async () => priced.close());

  it('prices segments × SMS_PRICE exactly, in the balance currency', async () => {
    const { http } = await registerUser(priced.url);
    const client = await createClient(http);
    await giveCredit(priced.url, client.id, '1');
    const sent = await http.post(`/api/clients/${client.id}/messages/sms`, {
      sender: 'Shop',
      recipient: '447700900123',
      body: 'a'.repeat(307), // 3 segments
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      segments: 3,
      price: 0.2175,
      currency: 'GBP',
    });
    const balance = await http.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.body).toMatchObject({ currency: 'GBP', amount: 0.7825 });
  });
});
