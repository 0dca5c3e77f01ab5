import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMessage } from '../../support/delivery.ts';
import { expectLedgerBalanced } from '../../support/ledger.ts';
import { createClient, giveCredit, registerUser } from '../../support/seed.ts';
import { startSmsc, type TestSmsc } from '../../support/smsc.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * Expiry (CONTRACT, "Campaigns", Validity): a message SUBMITTED to an SMSC that never sends a
 * receipt ends EXPIRED once MESSAGE_VALIDITY_SECONDS have passed since its submit, with its
 * error, not refunded, with a status callback; a receipt that comes later changes nothing.
 */
const VALIDITY_SECONDS = 3;
const ERROR = 'no receipt within the validity period';

let smsc: TestSmsc;
let server: TestServer;
let receiver: http.Server;
let receiverUrl: string;
const callbacks: any[] = [];

beforeAll(async () => {
  // No receipt unless a submit's script says so.
  smsc = await startSmsc({ receipt: null });
  receiver = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    callbacks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    response.writeHead(200).end();
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  server = await startServer({
    SMPP_HOST: '127.0.0.1',
    SMPP_PORT: String(smsc.port),
    SMPP_SYSTEM_ID: 'test',
    SMPP_PASSWORD: 'secret',
    MESSAGE_VALIDITY_SECONDS: String(VALIDITY_SECONDS),
    STATUS_CALLBACK_ALLOW_PRIVATE: 'true',
  });
});
afterAll(async () => {
  await server?.close();
  await smsc?.close();
  receiver?.closeAllConnections();
  await new Promise((done) => receiver?.close(done));
});

async function customer() {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  await giveCredit(server.url, client.id, 10);
  const set = await owner.http.put(`/api/clients/${client.id}`, {
    statusCallbackUrl: receiverUrl,
  });
  expect(set.status).toBe(200);
  const send = async (body: string, extra: object = {}) => {
    const sent = await owner.http.post(
      `/api/clients/${client.id}/messages/sms`,
      { sender: 'Shop', recipient: '+44 7700 900123', body, ...extra },
    );
    expect(sent.status).toBe(201);
    return sent.body.id as string;
  };
  const wait = (id: string, done?: (m: any) => boolean, timeout?: number) =>
    waitForMessage(owner.http, client.id, id, done, timeout);
  const balance = async () =>
    (await owner.http.get(`/api/clients/${client.id}/balances/default`)).body
      .amount as number;
  return { send, wait, balance };
}

/** sms_messages_total{state="EXPIRED"} on /metrics (0 before the first). */
async function expiredCounted(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('sms_messages_total{state="EXPIRED"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('expiry of SUBMITTED messages', () => {
  it('ends a message with no receipt EXPIRED after the validity, unrefunded, and keeps it so', async () => {
    const c = await customer();
    const countedBefore = await expiredCounted();
    const silent = await c.send('nobody answers');
    const submitted = await c.wait(silent, (m) => m.state === 'SUBMITTED');
    smsc.script({ receipt: { stat: 'DELIVRD' } });
    const answered = await c.send('answered in time');
    expect((await c.wait(answered)).state).toBe('DELIVERED');
    const charged = await c.balance();

    const expired = await c.wait(
      silent,
      (m) => m.state !== 'SUBMITTED',
      (VALIDITY_SECONDS + 10) * 1000,
    );
    expect(expired.state).toBe('EXPIRED');
    expect(expired.attempts).toEqual([
      expect.objectContaining({ state: 'EXPIRED', error: ERROR }),
    ]);
    // Counted from the submit, and found within a quarter of the validity (plus load).
    const waited =
      Date.parse(expired.dateUpdated) -
      Date.parse(submitted.attempts[0].dateCreated);
    expect(waited).toBeGreaterThanOrEqual(VALIDITY_SECONDS * 1000);
    expect(waited).toBeLessThan((VALIDITY_SECONDS + 5) * 1000);
    // A provider took it: no refund. The message that had its receipt is untouched.
    expect(await c.balance()).toBe(charged);
    expect((await c.wait(answered)).state).toBe('DELIVERED');
    await expectLedgerBalanced(server);

    // The state change went out as a status callback, and the metric counted it.
    await expect
      .poll(
        () =>
          callbacks.find(
            (b) => b.messageId === silent && b.state === 'EXPIRED',
          ),
        { timeout: 10_000, message: 'EXPIRED callback' },
      )
      .toMatchObject({ error: ERROR });
    expect(await expiredCounted()).toBe(countedBefore + 1);

    // A receipt after the expiry is acknowledged, kept on its part, and changes nothing.
    const providerId = submitted.attempts[0].providerMessageId;
    smsc.sendReceipt(providerId, { stat: 'DELIVRD' });
    await expect
      .poll(
        () => smsc.receiptAnswers.filter((r) => r.messageId === providerId),
        { timeout: 5_000, message: 'late receipt answered' },
      )
      .toEqual([{ messageId: providerId, status: 0 }]);
    await expect
      .poll(
        async () =>
          (
            await server.app.db.query<{ state: string | null }>(
              'SELECT state FROM message_parts WHERE provider_message_id = $1',
              [providerId],
            )
          )[0]?.state,
        { timeout: 5_000, message: 'late receipt stored' },
      )
      .toBe('DELIVERED');
    const after = await c.wait(silent);
    expect(after.state).toBe('EXPIRED');
    expect(after.attempts[0]).toMatchObject({ state: 'EXPIRED', error: ERROR });
    expect(await c.balance()).toBe(charged);
  });

  it('counts a scheduled message’s validity from its release, not from its creation', async () => {
    const c = await customer();
    // Created more than the validity before its sendAt: counted from its creation it would be
    // EXPIRED as soon as it is submitted.
    const sendAt = new Date(Date.now() + (VALIDITY_SECONDS + 2) * 1000);
    const id = await c.send('later, nobody answers', {
      sendAt: sendAt.toISOString(),
    });
    const submitted = await c.wait(
      id,
      (m) => m.state !== 'SCHEDULED' && m.state !== 'ACCEPTED',
      (VALIDITY_SECONDS + 15) * 1000,
    );
    expect(submitted.state).toBe('SUBMITTED');
    const submittedAt = Date.parse(submitted.attempts[0].dateCreated);
    expect(submittedAt).toBeGreaterThanOrEqual(sendAt.getTime());
    const expired = await c.wait(
      id,
      (m) => m.state !== 'SUBMITTED',
      (VALIDITY_SECONDS + 10) * 1000,
    );
    expect(expired.state).toBe('EXPIRED');
    expect(
      Date.parse(expired.dateUpdated) - submittedAt,
    ).toBeGreaterThanOrEqual(VALIDITY_SECONDS * 1000);
    await expectLedgerBalanced(server);
  });
});
