import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../../../support/engine.ts';
import { spawnFleet, type Fleet } from '../../../support/fleet.ts';
import { httpClient, type Answer } from '../../../support/http.ts';
import { expectLedgerBalanced } from '../../../support/ledger.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
  setPrice as seedPrice,
  setRoles,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * CONTRACT "Destinations: prices, permissions and throughput", on the send path: the price of
 * the longest matching prefix (else SMS_PRICE), blocked and not-allowed destinations refused
 * with nothing charged, the client's limits set by staff, the quote, and the messages a second.
 * Prices are global: each test uses its own country codes.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SMS_PRICE: '0.05' });
});
afterAll(async () => server?.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
/** 400 GSM-7 characters: 3 segments of 153. */
const THREE_SEGMENTS = 'x'.repeat(400);

const setPrice = (
  prefix: string,
  name: string,
  pricePerSegment: string,
  blocked = false,
) => seedPrice(server.url, prefix, { name, pricePerSegment, blocked });

/** A customer with a client holding `credit`, and how to send and quote for it. */
async function customer(baseUrl = server.url, credit: string | null = '10') {
  const owner = await registerUser(baseUrl);
  const client = await createClient(owner.http);
  if (credit !== null) await giveCredit(baseUrl, client.id, credit);
  const send = (
    recipient: string,
    body = 'Hello',
    headers?: Record<string, string>,
  ) =>
    owner.http.post(
      `/api/clients/${client.id}/messages/sms`,
      { sender: 'Shop', recipient, body },
      headers,
    );
  const quote = (recipient: string, body = 'Hello') =>
    owner.http.get(
      `/api/clients/${client.id}/quote?recipient=${encodeURIComponent(recipient)}&body=${encodeURIComponent(body)}`,
    );
  const balance = async () =>
    (await owner.http.get(`/api/clients/${client.id}/balances/default`)).body
      .amount as number;
  const messages = async () =>
    (await owner.http.get(`/api/clients/${client.id}/messages?count=100`)).body
      .messages as { id: string }[];
  const ledger = async () =>
    (
      await owner.http.get(
        `/api/clients/${client.id}/balances/default/ledger?count=100`,
      )
    ).body.entries as Record<string, unknown>[];
  return { ...owner, client, send, quote, balance, messages, ledger };
}

const setLimits = (clientId: string, limits: object) =>
  adminHttp(server.url).put(`/api/admin/clients/${clientId}/limits`, limits);

describe('charging at the recipient’s price', () => {
  it('takes the longest matching prefix, and SMS_PRICE when none matches', async () => {
    await setPrice('44', 'United Kingdom', '0.04');
    await setPrice('4479', 'United Kingdom mobile', '0.0725');
    const { send, ledger, http, client } = await customer();

    const mobile = await send('+44 7912 345678');
    expect(mobile.status).toBe(201);
    expect(mobile.body).toMatchObject({
      price: 0.0725,
      pricePerSegment: 0.0725,
      pricePrefix: '4479',
      segments: 1,
    });
    const landline = await send('442012345678');
    expect(landline.body).toMatchObject({
      price: 0.04,
      pricePerSegment: 0.04,
      pricePrefix: '44',
    });
    // No entry starts 8: the default price, no prefix.
    const other = await send('81312345678');
    expect(other.body).toMatchObject({
      price: 0.05,
      pricePerSegment: 0.05,
      pricePrefix: null,
    });

    const read = await http.get(
      `/api/clients/${client.id}/messages/${mobile.body.id}`,
    );
    expect(read.body).toMatchObject({
      pricePerSegment: 0.0725,
      pricePrefix: '4479',
    });
    const entries = await ledger();
    expect(
      entries
        .filter((e) => e.kind === 'SMS')
        .map((e) => [e.messageId, e.amount, e.pricePerSegment, e.pricePrefix]),
    ).toEqual([
      [other.body.id, -0.05, 0.05, null],
      [landline.body.id, -0.04, 0.04, '44'],
      [mobile.body.id, -0.0725, 0.0725, '4479'],
    ]);
    const csv = await http.get(
      `/api/clients/${client.id}/balances/default/ledger.csv`,
    );
    expect(csv.body.split('\n')[0]).toBe(
      'id,date,kind,amount,balanceAfter,reason,messageId,recipient,segments,pricePerSegment,pricePrefix',
    );
    expect(csv.body).toContain(',447912345678,1,0.0725,4479\n');
    const log = await http.get(`/api/clients/${client.id}/messages.csv`);
    expect(log.body.split('\r\n')[0]).toContain(
      'price,pricePerSegment,pricePrefix,currency',
    );
  });

  it('charges segments × price exactly, rounded half up to 4 places, and the ledger sums to the balance', async () => {
    await setPrice('3161', 'Netherlands mobile', '0.0725');
    await setPrice('3162', 'Netherlands half', '0.00015');
    await setPrice('3163', 'Netherlands below half', '0.00004');
    const { send, balance, ledger } = await customer(server.url, '1');

    const three = await send('31612345678', THREE_SEGMENTS);
    expect(three.body).toMatchObject({ segments: 3, price: 0.2175 });
    // 0.00015 → 0.0002 (half up); 0.00004 → 0.0000.
    expect((await send('31622345678')).body.price).toBe(0.0002);
    expect((await send('31632345678')).body.price).toBe(0);
    expect((await send('31622345678', THREE_SEGMENTS)).body.price).toBe(0.0005);
    expect(await balance()).toBe(0.7818); // 1 − 0.2175 − 0.0002 − 0 − 0.0005
    const sum = (await ledger()).reduce(
      (total, e) => total + Math.round(Number(e.amount) * 10_000),
      0,
    );
    expect(sum).toBe(7818);
    await expectLedgerBalanced(server);
  });

  it('keeps the ledger exact when sends to destinations of different prices race', async () => {
    await setPrice('3411', 'Spain A', '0.0333');
    await setPrice('3412', 'Spain B', '0.1');
    await setPrice('34123', 'Spain B premium', '0.27');
    const { send, balance, messages } = await customer(server.url, '2');
    const recipients = ['34111111111', '34121111111', '34123111111', '7911'];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        send(recipients[i % recipients.length]!.padEnd(11, '1'), `m${i}`),
      ),
    );
    const accepted = answers.filter((a) => a.status === 201);
    expect(accepted.length).toBeGreaterThan(0);
    expect(
      answers.filter((a) => a.status !== 201).map((a) => a.status),
    ).toEqual(Array(40 - accepted.length).fill(402));
    const spent = accepted.reduce(
      (total, a) => total + Math.round(a.body.price * 10_000),
      0,
    );
    expect(Math.round((await balance()) * 10_000)).toBe(20_000 - spent);
    expect(await messages()).toHaveLength(accepted.length);
    await expectLedgerBalanced(server);
  });
});

describe('closed destinations', () => {
  it('refuses a blocked prefix with 403 naming it, charging nothing and keeping no idempotency key', async () => {
    await setPrice('49', 'Germany', '0.06');
    await setPrice('49900', 'Germany premium', '1.5', true);
    const { send, quote, balance, messages, ledger } = await customer();
    const key = { 'idempotency-key': 'blocked-once' };

    const refused = await send('4990012345678', 'Hello', key);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'Sending to +4990012345678 (Germany premium, prefix 49900) is not allowed: this destination is blocked',
    );
    expect((await quote('4990012345678')).body).toMatchObject({
      allowed: false,
      reason: refused.body.message,
      pricePrefix: '49900',
      amount: 1.5,
    });
    expect(await balance()).toBe(10);
    expect(await messages()).toHaveLength(0);
    expect(await ledger()).toHaveLength(1);
    expect((await send('4930123456', 'Hello')).status).toBe(201);

    // Unblocked, the same key sends: the refusal kept nothing.
    await setPrice('49900', 'Germany premium', '1.5', false);
    const again = await send('4990012345678', 'Hello', key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.price).toBe(1.5);
  });

  it("refuses a destination outside the client's allowed prefixes with 403, charging nothing", async () => {
    await setPrice('33', 'France', '0.045');
    await setPrice('3367', 'France mobile', '0.055');
    const { client, send, quote, balance, messages } = await customer();
    expect(
      (await setLimits(client.id, { allowedPrefixes: ['336', '39'] })).status,
    ).toBe(200);

    const refused = await send('33123456789');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'Sending to +33123456789 (France, prefix 33) is not allowed for this client',
    );
    const unpriced = await send('38512345678');
    expect(unpriced.status).toBe(403);
    expect(unpriced.body.message).toBe(
      'Sending to +38512345678 is not allowed for this client',
    );
    expect(await balance()).toBe(10);
    expect(await messages()).toHaveLength(0);

    const inside = await send('33671234567');
    expect(inside.status).toBe(201);
    expect(inside.body).toMatchObject({ price: 0.055, pricePrefix: '3367' });
    expect((await send('39123456789')).status).toBe(201);
    expect(await quote('33123456789')).toMatchObject({
      status: 200,
      body: { allowed: false, reason: refused.body.message },
    });

    // null opens every destination again.
    expect(
      (await setLimits(client.id, { allowedPrefixes: null })).body
        .allowedPrefixes,
    ).toBeNull();
    expect((await send('33123456789')).status).toBe(201);
  });
});

describe('PUT /api/admin/clients/{clientId}/limits', () => {
  it('sets, keeps and clears each limit, shows them on the client to its owner and staff, and is audited', async () => {
    const { client, http } = await customer(server.url, null);
    const admin = adminHttp(server.url);
    const own = await http.get(`/api/clients/${client.id}`);
    expect(own.body).toMatchObject({
      allowedPrefixes: null,
      maxMessagesPerSecond: null,
    });

    const set = await setLimits(client.id, {
      allowedPrefixes: ['4479', '33', '4479'],
      maxMessagesPerSecond: 20,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      id: client.id,
      allowedPrefixes: ['33', '4479'],
      maxMessagesPerSecond: 20,
    });
    // What is left out is kept; null clears.
    const cleared = await setLimits(client.id, { maxMessagesPerSecond: null });
    expect(cleared.body).toMatchObject({
      allowedPrefixes: ['33', '4479'],
      maxMessagesPerSecond: null,
    });
    expect((await http.get(`/api/clients/${client.id}`)).body).toMatchObject({
      allowedPrefixes: ['33', '4479'],
      maxMessagesPerSecond: null,
    });
    expect(
      (await admin.get(`/api/admin/clients/${client.id}`)).body,
    ).toMatchObject({ allowedPrefixes: ['33', '4479'] });

    const events = (
      await admin.get(
        `/api/admin/audit?action=client.limits_changed&targetId=${client.id}`,
      )
    ).body.events;
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      targetType: 'client',
      targetId: client.id,
      before: { allowedPrefixes: null, maxMessagesPerSecond: null },
      after: { allowedPrefixes: ['33', '4479'], maxMessagesPerSecond: 20 },
    });
    expect(events[0]).toMatchObject({
      before: { maxMessagesPerSecond: 20 },
      after: { maxMessagesPerSecond: null },
    });
    // No change, no event.
    await setLimits(client.id, { maxMessagesPerSecond: null });
    expect(
      (
        await admin.get(
          `/api/admin/audit?action=client.limits_changed&targetId=${client.id}`,
        )
      ).body.events,
    ).toHaveLength(2);
  });

  it('needs ROLE_CLIENT_ADMIN, checks its body and answers 404 for an unknown client', async () => {
    const { client, http } = await customer(server.url, null);
    expect(
      (
        await http.put(`/api/admin/clients/${client.id}/limits`, {
          maxMessagesPerSecond: 1000,
        })
      ).status,
    ).toBe(403);
    const staff = await registerUser(server.url);
    await setRoles(server.url, staff.id, [
      'ROLE_CLIENT_VIEW',
      'ROLE_CLIENT_UPDATE',
    ]);
    expect(
      (
        await staff.http.put(`/api/admin/clients/${client.id}/limits`, {
          maxMessagesPerSecond: 5,
        })
      ).status,
    ).toBe(403);
    await setRoles(server.url, staff.id, ['ROLE_CLIENT_ADMIN']);
    expect(
      (
        await staff.http.put(`/api/admin/clients/${client.id}/limits`, {
          maxMessagesPerSecond: 5,
        })
      ).status,
    ).toBe(200);

    for (const body of [
      { allowedPrefixes: ['+44'] },
      { allowedPrefixes: ['1234567890123456'] },
      { allowedPrefixes: '44' },
      { maxMessagesPerSecond: 0 },
      { maxMessagesPerSecond: 1.5 },
    ]) {
      expect((await setLimits(client.id, body)).status).toBe(400);
    }
    expect((await setLimits(UNKNOWN, { maxMessagesPerSecond: 1 })).status).toBe(
      404,
    );
  });
});

describe('GET /api/clients/{clientId}/quote', () => {
  it('answers exactly what the send then charges, for the owner and the API client', async () => {
    await setPrice('36', 'Hungary', '0.0333');
    await setPrice('3620', 'Hungary mobile', '0.041');
    const { client, quote, send, balance } = await customer(server.url, '5');
    const cases: [string, string][] = [
      ['+36 20 123 4567', THREE_SEGMENTS],
      ['3611234567', 'Hello'],
      ['6612345678', 'Привет'.repeat(20)],
    ];
    let spent = 0;
    for (const [recipient, body] of cases) {
      const quoted = await quote(recipient, body);
      expect(quoted.status).toBe(200);
      const sent = await send(recipient, body);
      expect(sent.status).toBe(201);
      expect(quoted.body).toEqual({
        recipient: sent.body.recipient,
        pricePrefix: sent.body.pricePrefix,
        pricePerSegment: sent.body.pricePerSegment,
        encoding: sent.body.encoding,
        segments: sent.body.segments,
        amount: sent.body.price,
        allowed: true,
        reason: null,
      });
      spent += Math.round(sent.body.price * 10_000);
    }
    expect(Math.round((await balance()) * 10_000)).toBe(50_000 - spent);
    expect((await quote('+36 20 123 4567', THREE_SEGMENTS)).body).toMatchObject(
      {
        recipient: '36201234567',
        pricePrefix: '3620',
        pricePerSegment: 0.041,
        segments: 3,
        amount: 0.123,
      },
    );
    const asClient = await clientHttp(server.url, client).get(
      `/api/clients/${client.id}/quote?recipient=3611234567&body=Hi`,
    );
    expect(asClient.body).toMatchObject({ amount: 0.0333, allowed: true });
  });

  it('validates as the send does, and answers 404 for a client not the caller’s', async () => {
    const { client, quote } = await customer(server.url, null);
    const bad = await quote('12ab', 'Hello');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(
      /Recipient must be a phone number of 6 to 15 digits/,
    );
    expect((await quote('447700900123', '')).status).toBe(400);
    const other = await registerUser(server.url);
    expect(
      (
        await other.http.get(
          `/api/clients/${client.id}/quote?recipient=447700900123&body=Hi`,
        )
      ).status,
    ).toBe(404);
  });
});

/** Fires `count` sends at once (alternating over `nodes`), starting just after a second turns. */
async function burst(
  nodes: ReturnType<typeof httpClient>[],
  clientId: string,
  count: number,
): Promise<{ answers: Answer[]; windows: number }> {
  // A fixed wait on purpose: the limit counts per wall-clock second, and a burst that starts
  // as one turns fits in one window, which keeps the bound below tight.
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      nodes[i % nodes.length]!.post(`/api/clients/${clientId}/messages/sms`, {
        sender: 'Shop',
        recipient: '81312345678',
        body: `burst ${i}`,
      }),
    ),
  );
  const windows =
    Math.floor(Date.now() / 1000) - Math.floor(started / 1000) + 1;
  return { answers, windows };
}

function expectThrottled(
  answers: Answer[],
  limit: number,
  windows: number,
): number {
  const accepted = answers.filter((a) => a.status === 201).length;
  const refused = answers.filter((a) => a.status !== 201);
  for (const answer of refused) {
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  }
  // Within 10% of what the windows the burst spanned allow (the first is always full).
  expect(accepted).toBeGreaterThanOrEqual(Math.floor(limit * 0.9));
  expect(accepted).toBeLessThanOrEqual(Math.ceil(limit * windows * 1.1));
  return accepted;
}

describe('messages a second', () => {
  it('answers 429 with Retry-After beyond the limit, charging nothing for refused sends', async () => {
    const { client, balance, messages } = await customer(server.url, '10');
    await setLimits(client.id, { maxMessagesPerSecond: 5 });
    const api = clientHttp(server.url, client);
    await api.get(
      `/api/clients/${client.id}/quote?recipient=81312345678&body=warm`,
    );
    const { answers, windows } = await burst([api], client.id, 20);
    const accepted = expectThrottled(answers, 5, windows);
    expect(answers.find((a) => a.status === 429)?.body.message).toMatch(
      /limit/,
    );
    expect(await messages()).toHaveLength(accepted);
    expect(Math.round((await balance()) * 100)).toBe(1000 - accepted * 5);
    await expectLedgerBalanced(server);

    // The next second accepts again: tried until it does (each refused try charges nothing).
    await expect
      .poll(
        async () =>
          (
            await api.post(`/api/clients/${client.id}/messages/sms`, {
              sender: 'Shop',
              recipient: '81312345678',
              body: 'later',
            })
          ).status,
        { interval: 100, timeout: 3_000 },
      )
      .toBe(201);
  });

  describe.skipIf(!onPostgres)('over two nodes on one PostgreSQL', () => {
    let fleet: Fleet | undefined;
    afterAll(async () => fleet?.close());

    it('counts the sends of both nodes against one limit (CLIENT_MAX_MPS for new clients)', async () => {
      fleet = await spawnFleet(2, {
        SMS_PRICE: '0.05',
        CLIENT_MAX_MPS: '10',
        DELIVERY_WORKERS: '0',
      });
      const [a, b] = fleet.nodes.map((node) => node.url) as [string, string];
      const owner = await registerUser(a);
      const client = await createClient(owner.http);
      expect(client).toMatchObject({ maxMessagesPerSecond: 10 });
      await giveCredit(a, client.id, '10');
      const nodes = [clientHttp(a, client), clientHttp(b, client)];
      for (const node of nodes) {
        await node.get(
          `/api/clients/${client.id}/quote?recipient=81312345678&body=warm`,
        );
      }
      const { answers, windows } = await burst(nodes, client.id, 40);
      const accepted = expectThrottled(answers, 10, windows);
      const balanceNow = await owner.http.get(
        `/api/clients/${client.id}/balances/default`,
      );
      expect(Math.round(balanceNow.body.amount * 100)).toBe(
        1000 - accepted * 5,
      );
      const log = await owner.http.get(
        `/api/clients/${client.id}/messages?count=100`,
      );
      expect(log.body.total).toBe(accepted);
    });
  });
});
