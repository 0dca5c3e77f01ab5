import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMessage } from '../../support/delivery.ts';
import { nothingWithin } from '../../support/eventually.ts';
import {
  adminHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';
import {
  sendVonageReceipt,
  startVonage,
  vonageReceiptFields,
  type TestVonage,
} from '../../support/vonage-server.ts';
import {
  sendGatewayReceipt,
  startGenericGateway,
  type TestGateway,
} from '../../support/generic-gateway-server.ts';

/**
 * The HTTP providers wired into delivery: VONAGE_SMS against a local server speaking Vonage's
 * SMS API, WORLD_SPECIAL against a local generic gateway, their receipts through the public
 * webhooks, seen through the message log.
 */
const PUBLIC_URL = 'https://console.example.test';
const SIGNATURE = {
  secret: 'vonage-signature-secret',
  method: 'sha256',
} as const;
const TOKEN = 'gateway-token';

let vonage: TestVonage;
let gateway: TestGateway;
let server: TestServer;

beforeAll(async () => {
  vonage = await startVonage({ apiKey: 'key-1', apiSecret: 'secret-1' });
  gateway = await startGenericGateway({ token: TOKEN });
  server = await startServer({
    VONAGE_API_KEY: 'key-1',
    VONAGE_API_SECRET: 'secret-1',
    VONAGE_BASE_URL: vonage.baseUrl,
    VONAGE_SIGNATURE_SECRET: SIGNATURE.secret,
    VONAGE_SIGNATURE_METHOD: SIGNATURE.method,
    WORLD_SPECIAL_URL: gateway.url,
    WORLD_SPECIAL_TOKEN: TOKEN,
    PUBLIC_URL,
    PROVIDER_TIMEOUT_MS: '300',
  });
});
afterAll(async () => {
  await server?.close();
  await vonage?.close();
  await gateway?.close();
});

const vonageWebhook = () => `${server.url}/api/webhooks/vonage/dlr`;
const gatewayWebhook = () => `${server.url}/api/webhooks/world-special/dlr`;

/** A funded customer whose client routes over the given splits (method → weight). */
async function customer(splits: Record<string, number>, on = server) {
  const owner = await registerUser(on.url);
  const client = await createClient(owner.http);
  await giveCredit(on.url, client.id, 10);
  for (const [deliveryMethod, weight] of Object.entries(splits)) {
    const created = await adminHttp(on.url).post('/api/admin/routes/split', {
      userId: client.userId,
      clientId: client.id,
      deliveryMethod,
      weight,
    });
    expect(created.status).toBe(201);
  }
  const send = async (body: string, sender = 'Shop') => {
    const sent = await owner.http.post(
      `/api/clients/${client.id}/messages/sms`,
      { sender, recipient: '+44 7700 900123', body },
    );
    expect(sent.status).toBe(201);
    return sent.body as { id: string; state: string };
  };
  const wait = (id: string, done?: (m: any) => boolean) =>
    waitForMessage(owner.http, client.id, id, done);
  const submitted = (id: string) => wait(id, (m) => m.state !== 'ACCEPTED');
  return { client, send, wait, submitted };
}

const vonageSubmitOf = (messageId: string, from = vonage) =>
  from.submits.filter((s) => s.fields['client-ref'] === messageId);
const gatewayRequestsOf = (messageId: string) =>
  gateway.requests.filter((r) => r.body?.messageId === messageId);

describe('VONAGE_SMS', () => {
  it('submits with Vonage fields: SUBMITTED, then a signed receipt by GET makes it DELIVERED', async () => {
    const c = await customer({ VONAGE_SMS: 10 });
    const sent = await c.send('Hello from Vonage');
    const submitted = await c.submitted(sent.id);
    expect(submitted).toMatchObject({
      state: 'SUBMITTED',
      deliveryMethod: 'VONAGE_SMS',
      simulated: false,
    });
    const [submit] = vonageSubmitOf(sent.id);
    expect(submit!.fields).toMatchObject({
      api_key: 'key-1',
      api_secret: 'secret-1',
      from: 'Shop',
      to: '447700900123',
      text: 'Hello from Vonage',
      type: 'text',
      'client-ref': sent.id,
      callback: `${PUBLIC_URL}/api/webhooks/vonage/dlr`,
    });
    expect(submitted.attempts).toEqual([
      expect.objectContaining({
        method: 'VONAGE_SMS',
        state: 'SUBMITTED',
        providerMessageId: submit!.messageIds[0],
      }),
    ]);

    const receipt = await sendVonageReceipt(
      vonageWebhook(),
      vonageReceiptFields(submit!, {
        status: 'delivered',
        signature: SIGNATURE,
      }),
      'GET',
    );
    expect(receipt.status).toBe(200);
    const done = await c.wait(sent.id);
    expect(done.state).toBe('DELIVERED');
    expect(done.attempts).toEqual([
      expect.objectContaining({
        method: 'VONAGE_SMS',
        state: 'DELIVERED',
        error: null,
      }),
    ]);
  });

  it('sends UCS-2 as type=unicode and takes a POSTed form or JSON receipt with its error', async () => {
    const c = await customer({ VONAGE_SMS: 10 });
    const form = await c.send('Grüße 😀');
    await c.submitted(form.id);
    const [submit] = vonageSubmitOf(form.id);
    expect(submit!.fields.type).toBe('unicode');
    expect(submit!.fields.text).toBe('Grüße 😀');
    const posted = await sendVonageReceipt(
      vonageWebhook(),
      vonageReceiptFields(submit!, {
        status: 'failed',
        errCode: '3',
        signature: SIGNATURE,
      }),
      'POST',
    );
    expect(posted.status).toBe(200);
    const undelivered = await c.wait(form.id);
    expect(undelivered.state).toBe('UNDELIVERED');
    expect(undelivered.attempts[0].error).toBe(
      'failed err:3 (Absent Subscriber - Permanent)',
    );

    const json = await c.send('expire me');
    await c.submitted(json.id);
    const fields = vonageReceiptFields(vonageSubmitOf(json.id)[0]!, {
      status: 'expired',
      signature: SIGNATURE,
    });
    const answer = await fetch(vonageWebhook(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fields),
    });
    expect(answer.status).toBe(200);
    expect((await c.wait(json.id)).state).toBe('EXPIRED');
  });

  it('waits out a throttle (status 1) and then submits', async () => {
    const c = await customer({ VONAGE_SMS: 10 });
    vonage.script({ status: '1' });
    const sent = await c.send('after the throttle');
    const submitted = await c.submitted(sent.id);
    expect(submitted.state).toBe('SUBMITTED');
    const submits = vonageSubmitOf(sent.id);
    expect(submits.map((s) => s.statuses)).toEqual([['1'], ['0']]);
    // The second request came after a backoff, not at once.
    expect(
      submits[1]!.receivedAt - submits[0]!.receivedAt,
    ).toBeGreaterThanOrEqual(200);
  });

  it('fails over to WORLD_SPECIAL after a permanent refusal (Number Barred)', async () => {
    const c = await customer({ VONAGE_SMS: 1000, WORLD_SPECIAL: 1 });
    vonage.script({ status: '7' });
    // 1 in 1001 messages draws WORLD_SPECIAL first: the refusal is still scripted then.
    for (let tries = 0; tries < 3; tries++) {
      const sent = await c.send('fail me over');
      const submitted = await c.submitted(sent.id);
      if (submitted.attempts[0].method !== 'VONAGE_SMS') continue;
      expect(submitted).toMatchObject({
        state: 'SUBMITTED',
        deliveryMethod: 'WORLD_SPECIAL',
      });
      expect(submitted.attempts.map((a: any) => [a.method, a.state])).toEqual([
        ['VONAGE_SMS', 'REFUSED'],
        ['WORLD_SPECIAL', 'SUBMITTED'],
      ]);
      expect(submitted.attempts[0].error).toMatch(
        /Vonage status 7 Number Barred/,
      );
      expect(vonageSubmitOf(sent.id)).toHaveLength(1); // no retry of a refusal
      const [request] = gatewayRequestsOf(sent.id);
      const receipt = await sendGatewayReceipt(
        gatewayWebhook(),
        { id: request!.id!, status: 'delivered' },
        TOKEN,
      );
      expect(receipt.status).toBe(200);
      expect((await c.wait(sent.id)).state).toBe('DELIVERED');
      return;
    }
    throw new Error('never routed to VONAGE_SMS first');
  });

  it('answers 2xx to a duplicate and a late contrary receipt, and keeps the final state', async () => {
    const c = await customer({ VONAGE_SMS: 10 });
    const sent = await c.send('receipt twice');
    await c.submitted(sent.id);
    const [submit] = vonageSubmitOf(sent.id);
    const delivered = vonageReceiptFields(submit!, {
      status: 'delivered',
      signature: SIGNATURE,
    });
    expect((await sendVonageReceipt(vonageWebhook(), delivered)).status).toBe(
      200,
    );
    expect((await c.wait(sent.id)).state).toBe('DELIVERED');
    expect((await sendVonageReceipt(vonageWebhook(), delivered)).status).toBe(
      200,
    );
    const late = vonageReceiptFields(submit!, {
      status: 'rejected',
      errCode: '6',
      signature: SIGNATURE,
    });
    expect(
      (await sendVonageReceipt(vonageWebhook(), late, 'POST')).status,
    ).toBe(200);
    const after = await c.wait(sent.id);
    expect(after.state).toBe('DELIVERED');
    expect(after.attempts.map((a: any) => [a.state, a.error])).toEqual([
      ['DELIVERED', null],
    ]);
  });

  it('ignores a non-final status (accepted) with 200, and keeps the message SUBMITTED', async () => {
    const c = await customer({ VONAGE_SMS: 10 });
    const sent = await c.send('still on its way');
    await c.submitted(sent.id);
    const fields = vonageReceiptFields(vonageSubmitOf(sent.id)[0]!, {
      status: 'accepted',
      signature: SIGNATURE,
    });
    const answer = await sendVonageReceipt(vonageWebhook(), fields);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ status: 'ignored' });
    // Recorded in milliseconds if it were: still SUBMITTED all through 200 ms.
    await nothingWithin(200, async () =>
      expect((await c.wait(sent.id, () => true)).state).toBe('SUBMITTED'),
    );
  });

  it('refuses receipts without a valid signature (401) and garbage (400)', async () => {
    const c = await customer({ VONAGE_SMS: 10 });
    const sent = await c.send('signed only');
    await c.submitted(sent.id);
    const [submit] = vonageSubmitOf(sent.id);
    const unsigned = vonageReceiptFields(submit!, { status: 'delivered' });
    expect((await sendVonageReceipt(vonageWebhook(), unsigned)).status).toBe(
      401,
    );
    const wrongSecret = vonageReceiptFields(submit!, {
      status: 'delivered',
      signature: { secret: 'not-the-secret', method: 'sha256' },
    });
    expect(
      (await sendVonageReceipt(vonageWebhook(), wrongSecret, 'POST')).status,
    ).toBe(401);
    // Signed, then one field changed on the way.
    const tampered = {
      ...vonageReceiptFields(submit!, {
        status: 'failed',
        signature: SIGNATURE,
      }),
      status: 'delivered',
    };
    const refused = await sendVonageReceipt(vonageWebhook(), tampered);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text).message).toBe(
      'Missing or invalid Vonage signature',
    );
    const garbage = vonageReceiptFields(submit!, {
      status: 'teleported',
      signature: SIGNATURE,
    });
    const bad = await sendVonageReceipt(vonageWebhook(), garbage);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).message).toMatch(/unrecognised receipt status/);
    expect((await c.wait(sent.id, () => true)).state).toBe('SUBMITTED');
  });

  it('refuses a signed receipt whose timestamp is over 5 minutes old or in the future (401)', async () => {
    const c = await customer({ VONAGE_SMS: 10 });
    const sent = await c.send('fresh signatures only');
    await c.submitted(sent.id);
    const [submit] = vonageSubmitOf(sent.id);
    const now = Math.floor(Date.now() / 1000);
    const signedAt = (timestamp: number) =>
      vonageReceiptFields(submit!, {
        status: 'rejected',
        signature: { ...SIGNATURE, timestamp },
      });
    // A captured receipt, validly signed, sent again later.
    const replayed = await sendVonageReceipt(
      vonageWebhook(),
      signedAt(now - 6 * 60),
    );
    expect(replayed.status).toBe(401);
    expect(JSON.parse(replayed.text).message).toMatch(/older than 300 s/);
    const future = await sendVonageReceipt(
      vonageWebhook(),
      signedAt(now + 6 * 60),
      'POST',
    );
    expect(future.status).toBe(401);
    expect((await c.wait(sent.id, () => true)).state).toBe('SUBMITTED');
    // Within the window (a little clock skew too) it is taken.
    const fresh = await sendVonageReceipt(vonageWebhook(), signedAt(now + 20));
    expect(fresh.status).toBe(200);
    expect((await c.wait(sent.id)).state).toBe('REJECTED');
  });
});

describe('WORLD_SPECIAL', () => {
  it('submits the contract JSON with the bearer token: SUBMITTED, then its receipt makes it DELIVERED', async () => {
    const c = await customer({ WORLD_SPECIAL: 10 });
    const sent = await c.send('Привет');
    const submitted = await c.submitted(sent.id);
    expect(submitted).toMatchObject({
      state: 'SUBMITTED',
      deliveryMethod: 'WORLD_SPECIAL',
      simulated: false,
    });
    // The request the gateway answered is the last one: on a busy machine an earlier one may
    // have timed out and been sent again within the try.
    const request = gatewayRequestsOf(sent.id).at(-1);
    expect(request!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request!.body).toEqual({
      messageId: sent.id,
      from: 'Shop',
      to: '447700900123',
      text: 'Привет',
      encoding: 'UCS-2',
      statusUrl: `${PUBLIC_URL}/api/webhooks/world-special/dlr`,
    });
    expect(submitted.attempts[0].providerMessageId).toBe(request!.id);
    const receipt = await sendGatewayReceipt(
      gatewayWebhook(),
      { id: request!.id!, status: 'undelivered', error: 'handset off' },
      TOKEN,
    );
    expect(receipt.status).toBe(200);
    const done = await c.wait(sent.id);
    expect(done.state).toBe('UNDELIVERED');
    expect(done.attempts[0].error).toBe('undelivered: handset off');
  });

  it('retries after a timeout: a FAILED attempt, then the queue runs it again', async () => {
    const c = await customer({ WORLD_SPECIAL: 10 });
    // The connector's own three tries time out; the queue's retry then gets through.
    gateway.script({ noAnswer: true }, { noAnswer: true }, { noAnswer: true });
    const sent = await c.send('slow gateway');
    const submitted = await c.wait(sent.id, (m) => m.state === 'SUBMITTED');
    expect(submitted.attempts.map((a: any) => [a.method, a.state])).toEqual([
      ['WORLD_SPECIAL', 'FAILED'],
      ['WORLD_SPECIAL', 'SUBMITTED'],
    ]);
    expect(submitted.attempts[0].error).toMatch(/no answer .* within 0.3 s/);
    expect(gatewayRequestsOf(sent.id)).toHaveLength(4);
  });

  it('takes a duplicate and a late receipt with 2xx and keeps the final state', async () => {
    const c = await customer({ WORLD_SPECIAL: 10 });
    const sent = await c.send('twice');
    await c.submitted(sent.id);
    const id = gatewayRequestsOf(sent.id)[0]!.id!;
    const deliver = () =>
      sendGatewayReceipt(gatewayWebhook(), { id, status: 'delivered' }, TOKEN);
    expect((await deliver()).status).toBe(200);
    expect((await c.wait(sent.id)).state).toBe('DELIVERED');
    expect((await deliver()).status).toBe(200);
    const late = await sendGatewayReceipt(
      gatewayWebhook(),
      { id, status: 'expired' },
      TOKEN,
    );
    expect(late.status).toBe(200);
    const after = await c.wait(sent.id);
    expect(after.state).toBe('DELIVERED');
    expect(after.attempts.map((a: any) => a.state)).toEqual(['DELIVERED']);
  });

  it('refuses a wrong or missing token (401) and a receipt it cannot read (400)', async () => {
    const c = await customer({ WORLD_SPECIAL: 10 });
    const sent = await c.send('tokens');
    await c.submitted(sent.id);
    const id = gatewayRequestsOf(sent.id)[0]!.id!;
    const wrong = await sendGatewayReceipt(
      gatewayWebhook(),
      { id, status: 'delivered' },
      'not-the-token',
    );
    expect(wrong.status).toBe(401);
    const none = await fetch(gatewayWebhook(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, status: 'delivered' }),
    });
    expect(none.status).toBe(401);
    const garbage = await sendGatewayReceipt(
      gatewayWebhook(),
      { id, status: 'vanished' },
      TOKEN,
    );
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.text).message).toMatch(
      /^invalid receipt: status/,
    );
    expect((await c.wait(sent.id, () => true)).state).toBe('SUBMITTED');
  });

  it('refuses ids the database cannot store or are over 100 characters (400), and stores a cleaned, cut error', async () => {
    const c = await customer({ WORLD_SPECIAL: 10 });
    const sent = await c.send('hostile gateway');
    await c.submitted(sent.id);
    const id = gatewayRequestsOf(sent.id)[0]!.id!;
    for (const bad of ['A\u0000B', 'A\ud800B', '\udc00', 'x'.repeat(101)]) {
      const answer = await sendGatewayReceipt(
        gatewayWebhook(),
        { id: bad, status: 'rejected' },
        TOKEN,
      );
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(JSON.parse(answer.text).message).toMatch(/^invalid receipt: id: /);
    }
    // The real receipt, with an error text no column should hold as it is.
    const answer = await sendGatewayReceipt(
      gatewayWebhook(),
      {
        id,
        status: 'undelivered',
        error: `handset\u0000 off \ud800${'z'.repeat(1000)}`,
      },
      TOKEN,
    );
    expect(answer.status).toBe(200);
    const done = await c.wait(sent.id);
    expect(done.state).toBe('UNDELIVERED');
    const error = done.attempts[0].error as string;
    expect(error.startsWith('undelivered: handset off \ufffdzzz')).toBe(true);
    expect(error.length).toBe('undelivered: '.length + 200);
  });
});

/** Vonage's ids come in sequence: the id its next submit will get, from one it gave. */
const nextVonageId = (id: string) =>
  (BigInt(`0x${id}`) + 1n).toString(16).toUpperCase().padStart(16, '0');

describe('Vonage without VONAGE_SIGNATURE_SECRET (anyone can call the webhook)', () => {
  let ownVonage: TestVonage;
  let open: TestServer;
  beforeAll(async () => {
    ownVonage = await startVonage({ apiKey: 'key-2', apiSecret: 'secret-2' });
    open = await startServer({
      VONAGE_API_KEY: 'key-2',
      VONAGE_API_SECRET: 'secret-2',
      VONAGE_BASE_URL: ownVonage.baseUrl,
      PUBLIC_URL,
    });
  });
  afterAll(async () => {
    await open?.close();
    await ownVonage?.close();
  });
  const webhook = () => `${open.url}/api/webhooks/vonage/dlr`;

  /** What Vonage would send for this part, unsigned. */
  const unsigned = (messageId: string, clientRef: string, status: string) => ({
    messageId,
    status,
    'err-code': status === 'delivered' ? '0' : '6',
    'client-ref': clientRef,
    msisdn: '447700900123',
    to: 'Shop',
  });

  it("a forged receipt for the next id, posted before its submit, does not decide another customer's message", async () => {
    const attacker = await customer({ VONAGE_SMS: 10 }, open);
    const victim = await customer({ VONAGE_SMS: 10 }, open);
    const own = await attacker.send('mine');
    const ownSubmitted = await attacker.submitted(own.id);
    const next = nextVonageId(ownSubmitted.attempts[0].providerMessageId);
    // The attacker names its own live message as client-ref, so the receipt may wait.
    const forged = await sendVonageReceipt(
      webhook(),
      unsigned(next, own.id, 'rejected'),
    );
    expect(forged.status).toBe(200);

    const sent = await victim.send('not yours to reject');
    const submitted = await victim.submitted(sent.id);
    expect(submitted.attempts[0].providerMessageId).toBe(next);
    expect(submitted.state).toBe('SUBMITTED');
    // Vonage's real receipt (unsigned too, naming the victim's message) decides it.
    const [submit] = vonageSubmitOf(sent.id, ownVonage);
    const real = vonageReceiptFields(submit!, { status: 'delivered' });
    expect((await sendVonageReceipt(webhook(), real)).status).toBe(200);
    expect((await victim.wait(sent.id)).state).toBe('DELIVERED');
    // The attacker's own message was not touched either.
    expect((await attacker.wait(own.id, () => true)).state).toBe('SUBMITTED');
  });

  it('a forged receipt for a claimed id naming another message changes nothing; one without our client-ref is not stored', async () => {
    const attacker = await customer({ VONAGE_SMS: 10 }, open);
    const victim = await customer({ VONAGE_SMS: 10 }, open);
    const own = await attacker.send('mine');
    await attacker.submitted(own.id);
    const sent = await victim.send('claimed already');
    const submitted = await victim.submitted(sent.id);
    const id = submitted.attempts[0].providerMessageId as string;

    const wrongRef = await sendVonageReceipt(
      webhook(),
      unsigned(id, own.id, 'rejected'),
      'POST',
    );
    expect(wrongRef.status).toBe(200);
    const noRef = await sendVonageReceipt(webhook(), {
      messageId: id,
      status: 'rejected',
    });
    expect(noRef.status).toBe(200);
    expect(JSON.parse(noRef.text)).toEqual({ status: 'ignored' });
    // Ignored receipts change nothing, now or a moment later (a receipt is recorded in
    // milliseconds): still SUBMITTED all through 300 ms.
    await nothingWithin(300, async () =>
      expect((await victim.wait(sent.id, () => true)).state).toBe('SUBMITTED'),
    );

    const [submit] = vonageSubmitOf(sent.id, ownVonage);
    const real = vonageReceiptFields(submit!, {
      status: 'failed',
      errCode: '7',
    });
    expect((await sendVonageReceipt(webhook(), real, 'POST')).status).toBe(200);
    const done = await victim.wait(sent.id);
    expect(done.state).toBe('UNDELIVERED');
    expect(done.attempts[0].error).toBe('failed err:7 (Handset Busy)');
  });

  it('keeps at most 10 unclaimed receipts waiting for one message', async () => {
    const attacker = await customer({ VONAGE_SMS: 10 }, open);
    const own = await attacker.send('mine');
    await attacker.submitted(own.id);
    for (let i = 0; i < 15; i++) {
      const answer = await sendVonageReceipt(
        webhook(),
        unsigned(`FFFF${String(i).padStart(12, '0')}`, own.id, 'rejected'),
      );
      expect(answer.status).toBe(200);
    }
    const [row] = await open.app.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM message_parts WHERE receipt_client_ref = $1',
      [own.id],
    );
    expect(row!.n).toBe(10);
  });

  it('refuses ids PostgreSQL cannot store or over 100 characters with 400, and still takes valid receipts', async () => {
    const c = await customer({ VONAGE_SMS: 10 }, open);
    const sent = await c.send('garbage around me');
    await c.submitted(sent.id);
    const get = async (query: string) => {
      const response = await fetch(`${webhook()}?${query}`);
      return {
        status: response.status,
        body: (await response.json()) as { message: string },
      };
    };
    // NUL, a lone surrogate as UTF-8 escapes, one as a raw escape, too long, a NUL client-ref.
    for (const query of [
      'messageId=A%00B&status=delivered',
      'messageId=A%ED%A0%80B&status=delivered',
      'messageId=A%D8%00B&status=delivered',
      `messageId=${'A'.repeat(101)}&status=delivered`,
      `messageId=0C00000000000001&status=delivered&client-ref=${sent.id}%00`,
    ]) {
      const answer = await get(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.message, query).toMatch(/^Invalid (Vonage )?receipt/);
    }
    const json = await fetch(webhook(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messageId: 'A\ud800B', status: 'delivered' }),
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { message: string }).message).toMatch(
      /messageId must be printable/,
    );
    const form = await fetch(webhook(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'messageId=A%ED%A0%80B&status=delivered',
    });
    expect(form.status).toBe(400);

    const [submit] = vonageSubmitOf(sent.id, ownVonage);
    const real = vonageReceiptFields(submit!, { status: 'delivered' });
    expect((await sendVonageReceipt(webhook(), real)).status).toBe(200);
    expect((await c.wait(sent.id)).state).toBe('DELIVERED');
  });
});

describe('webhooks without Vonage configured, under a low WEBHOOK_RATE_LIMIT', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({
      WORLD_SPECIAL_TOKEN: TOKEN,
      WEBHOOK_RATE_LIMIT: '5',
      // The burst below comes from an address of its own (X-Forwarded-For), whose window no
      // earlier request has opened.
      TRUST_PROXY: 'true',
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('answers 404 at the Vonage webhook when nothing is sent through Vonage', async () => {
    const answer = await sendVonageReceipt(
      `${limited.url}/api/webhooks/vonage/dlr`,
      { messageId: '0C00000000000001', status: 'rejected', 'err-code': '6' },
    );
    expect(answer.status).toBe(404);
  });

  it('answers 429 with Retry-After beyond the limit from one address, and nothing else is limited', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${limited.url}/api/webhooks/world-special/dlr`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${TOKEN}`,
            'content-type': 'application/json',
            'x-forwarded-for': '203.0.113.7',
          },
          body: JSON.stringify({ id: 'unknown-1', status: 'delivered' }),
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(7);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused[0]!.json()) as { message: string }).message).toMatch(
      /Too many webhook requests/,
    );
    expect((await fetch(`${limited.url}/api/health`)).status).toBe(200);
  });
});
