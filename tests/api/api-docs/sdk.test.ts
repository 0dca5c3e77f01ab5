import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_SCHEMA_FILE, sdkSchemaSource } from '../../../scripts/sdk.ts';
import {
  createSmsClient,
  waitForFinalState,
  type SmsClient,
} from '../../../src/sdk/index.ts';
import { ADMIN } from '../../support/admin.ts';
import { eventually } from '../../support/eventually.ts';
import { httpClient } from '../../support/http.ts';
import { registerUser } from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * The typed SDK (src/sdk: openapi-fetch over the types generated from /api/openapi.json): the
 * committed types are those of the live description, and the main flows run through it — as a
 * customer, as an API client, and as examples/send-sms.ts in its own process.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SMS_PRICE: '0.05' });
});
afterAll(async () => server?.close());

/** A customer signed in through the SDK, with a funded API client and the SDK as that client. */
async function customer(credit = '10') {
  const owner = await registerUser(server.url);
  const asOwner = createSmsClient({
    baseUrl: server.url,
    username: owner.email,
    password: owner.password,
  });
  const created = await asOwner.POST('/api/clients', {
    body: { name: 'Shop' },
  });
  expect(created.response.status).toBe(201);
  const client = created.data!;
  const admin = createSmsClient({
    baseUrl: server.url,
    username: ADMIN.email,
    password: ADMIN.password,
  });
  const credited = await admin.POST(
    '/api/admin/clients/{clientId}/balances/{balanceId}/freecredit',
    {
      params: { path: { clientId: client.id, balanceId: client.id } },
      body: { amount: credit },
    },
  );
  expect(credited.response.status).toBe(200);
  const sms: SmsClient = createSmsClient({
    baseUrl: server.url,
    username: client.id,
    password: client.secret,
  });
  return { owner, asOwner, client, sms, clientId: client.id };
}

describe('the typed SDK', () => {
  it('is generated from the live description (`npm run sdk` after changing a route)', async () => {
    const doc = (await httpClient(server.url).get('/api/openapi.json')).body;
    const committed = await readFile(SDK_SCHEMA_FILE, 'utf8');
    // Not toBe: a failure would print 6,000 lines.
    expect(
      (await sdkSchemaSource(doc)) === committed,
      'src/sdk/schema.ts is stale: run `npm run sdk`',
    ).toBe(true);
  }, 60_000);

  it('quotes, sends with an idempotency key, replays it, and sees the message DELIVERED', async () => {
    const { sms, clientId } = await customer();
    const quote = await sms.GET('/api/clients/{clientId}/quote', {
      params: {
        path: { clientId },
        query: { recipient: '+44 7700 900123', body: 'Hello' },
      },
    });
    expect(quote.data).toMatchObject({
      recipient: '447700900123',
      segments: 1,
      amount: 0.05,
      allowed: true,
    });
    const send = () =>
      sms.POST('/api/clients/{clientId}/messages/sms', {
        params: { path: { clientId }, header: { 'Idempotency-Key': key } },
        body: { sender: 'Shop', recipient: '+44 7700 900123', body: 'Hello' },
      });
    const key = `order-${randomUUID()}`;
    const first = await send();
    expect(first.response.status).toBe(201);
    expect(first.data).toMatchObject({ state: 'ACCEPTED', price: 0.05 });
    const again = await send();
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data!.id).toBe(first.data!.id);

    const final = await waitForFinalState(sms, clientId, first.data!.id, {
      timeoutMs: 20_000,
      intervalMs: 100,
    });
    expect(final.state).toBe('DELIVERED');
    expect(final.attempts.length).toBeGreaterThan(0);

    const balance = await sms.GET('/api/clients/{clientId}/balances/default', {
      params: { path: { clientId } },
    });
    expect(balance.data!.amount).toBe(9.95);
    const ledger = await sms.GET(
      '/api/clients/{clientId}/balances/default/ledger',
      { params: { path: { clientId }, query: { kind: 'SMS' } } },
    );
    expect(ledger.data!.entries.map((e) => e.messageId)).toEqual([
      first.data!.id,
    ]);
    const list = await sms.GET('/api/clients/{clientId}/messages', {
      params: { path: { clientId }, query: { count: 10 } },
    });
    expect(list.data).toMatchObject({ total: 1, count: 10, offset: 0 });
  });

  it('sends a batch and follows it to the end', async () => {
    const { sms, clientId } = await customer();
    const created = await sms.POST('/api/clients/{clientId}/batches', {
      params: { path: { clientId } },
      body: {
        recipients: ['447700900001', '447700900002', '447700900003'],
        body: 'Your appointment is tomorrow',
      },
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ total: 3, amount: 0.15 });
    const batchId = created.data!.id;
    const done = await eventually(
      async () =>
        (
          await sms.GET('/api/clients/{clientId}/batches/{batchId}', {
            params: { path: { clientId, batchId } },
          })
        ).data!,
      (batch) => batch.states.DELIVERED === 3,
      { what: 'batch delivered', timeout: 20_000, interval: 100 },
    );
    expect(done.total).toBe(3);
    const listed = await sms.GET('/api/clients/{clientId}/batches', {
      params: { path: { clientId } },
    });
    expect(listed.data!.batches.map((b) => [b.id, b.total])).toEqual([
      [batchId, 3],
    ]);
  });

  it('answers typed errors whose code a program can branch on', async () => {
    const { sms, clientId } = await customer('0.01');
    const poor = await sms.POST('/api/clients/{clientId}/messages/sms', {
      params: { path: { clientId } },
      body: { sender: 'Shop', recipient: '447700900123', body: 'Hello' },
    });
    expect(poor.response.status).toBe(402);
    expect(poor.error).toMatchObject({
      code: 'insufficient_balance',
      message: 'Not enough balance',
    });
    const bad = await sms.POST('/api/clients/{clientId}/messages/sms', {
      params: { path: { clientId } },
      body: { sender: 'Shop', recipient: '12', body: 'Hello' },
    });
    expect(bad.error?.code).toBe('validation_failed');
  });

  it('runs examples/send-sms.ts in its own process until DELIVERED', async () => {
    const { client } = await customer();
    const { stdout } = await promisify(execFile)(
      'node_modules/.bin/node',
      ['examples/send-sms.ts', '+44 7700 900123', 'Your order has shipped'],
      {
        timeout: 60_000,
        env: {
          ...process.env,
          SMS_API_URL: server.url,
          SMS_CLIENT_ID: client.id,
          SMS_CLIENT_SECRET: client.secret,
        },
      },
    );
    expect(stdout).toContain('1 segment(s) at 0.05: 0.05');
    expect(stdout).toMatch(/message [0-9a-f-]{36} ACCEPTED\n/);
    expect(stdout).toMatch(/message [0-9a-f-]{36} DELIVERED\n/);
  }, 90_000);
});
