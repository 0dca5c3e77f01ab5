import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_CODE_NAMES,
  ERROR_CODES,
} from '../../../src/shared/error-codes.ts';
import { ErrorSchema } from '../../../src/shared/schemas/common.ts';
import { httpClient, type Answer } from '../../support/http.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
  setPrice,
  uniquePrefix,
} from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * Every error answer keeps its message (the spec's texts unchanged) and carries a stable `code`
 * a program can branch on (src/shared/error-codes.ts), through the real routes.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SMS_PRICE: '0.05' });
});
afterAll(async () => server?.close());

/** The answer is the documented error shape exactly, with this status, code and message. */
function expectError(
  answer: Answer,
  status: number,
  code: string,
  message?: string | RegExp,
) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(ErrorSchema.strict().parse(answer.body)).toEqual(answer.body);
  expect(answer.body.code).toBe(code);
  if (typeof message === 'string') expect(answer.body.message).toBe(message);
  else if (message) expect(answer.body.message).toMatch(message);
}

async function funded(credit: string | null = '10') {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  if (credit) await giveCredit(server.url, client.id, credit);
  const base = `/api/clients/${client.id}`;
  const sms = (body: object, headers?: Record<string, string>) =>
    owner.http.post(
      `${base}/messages/sms`,
      { sender: 'Shop', body: 'Hello', ...body },
      headers,
    );
  return { owner, client, base, sms };
}

describe('error codes', () => {
  it('validation_failed, bad_request, unauthorized, forbidden and not_found', async () => {
    const { owner, client, base, sms } = await funded();
    expectError(
      await sms({ recipient: '12' }),
      400,
      'validation_failed',
      'Recipient must be a phone number of 6 to 15 digits',
    );
    expectError(
      await owner.http.post(`${base}/messages/sms`, '{"sender":'),
      400,
      'bad_request',
    );
    expectError(
      await httpClient(server.url).get('/api/users/me'),
      401,
      'unauthorized',
    );
    expectError(
      await clientHttp(server.url, client).get('/api/users/me'),
      403,
      'forbidden',
      "API client credentials can only be used for that client's balance and messages",
    );
    expectError(
      await owner.http.get(`/api/clients/${randomUUID()}`),
      404,
      'not_found',
      'Client not found',
    );
    expectError(await owner.http.get('/api/no-such-route'), 404, 'not_found');
  });

  it('insufficient_balance, idempotency_key_reused and not_cancelable on sends', async () => {
    const poor = await funded(null);
    expectError(
      await poor.sms({ recipient: '447700900001' }),
      402,
      'insufficient_balance',
      'Not enough balance',
    );
    const { sms, base, owner } = await funded();
    const key = { 'idempotency-key': `order-${randomUUID()}` };
    const first = await sms({ recipient: '447700900001' }, key);
    expect(first.status).toBe(201);
    expectError(
      await sms({ recipient: '447700900002' }, key),
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request',
    );
    expectError(
      await owner.http.post(`${base}/messages/${first.body.id}/cancel`),
      409,
      'not_cancelable',
    );
  });

  it('destination_blocked and destination_not_allowed, for single sends and batches', async () => {
    const { client, base, owner, sms } = await funded();
    const blocked = uniquePrefix();
    await setPrice(server.url, blocked, {
      name: 'Blocked',
      pricePerSegment: 1,
      blocked: true,
    });
    expectError(
      await sms({ recipient: `${blocked}1` }),
      403,
      'destination_blocked',
      /is not allowed: this destination is blocked$/,
    );
    expectError(
      await owner.http.post(`${base}/batches`, {
        recipients: [`${blocked}1`],
        body: 'Hello',
      }),
      403,
      'destination_blocked',
    );
    const limits = await adminHttp(server.url).put(
      `/api/admin/clients/${client.id}/limits`,
      { allowedPrefixes: ['44'] },
    );
    expect(limits.status).toBe(200);
    expectError(
      await sms({ recipient: '33612345678' }),
      403,
      'destination_not_allowed',
      /is not allowed for this client$/,
    );
    expectError(
      await owner.http.post(`${base}/batches`, {
        recipients: [`${blocked}1`, '33612345678'],
        body: 'Hello',
      }),
      403,
      'destination_not_allowed',
    );
  });

  it('recipient_opted_out, for single sends and batches', async () => {
    const { base, owner, sms } = await funded();
    expect((await owner.http.put(`${base}/optouts/447700900777`)).status).toBe(
      200,
    );
    expectError(
      await sms({ recipient: '+447700900777' }),
      403,
      'recipient_opted_out',
      "Sending to +447700900777 is not allowed: the recipient opted out of this client's messages",
    );
    expectError(
      await owner.http.post(`${base}/batches`, {
        recipients: ['447700900777'],
        body: 'Hello',
      }),
      403,
      'recipient_opted_out',
    );
  });

  it('rate_limited with Retry-After beyond the messages a second', async () => {
    const { client, sms } = await funded();
    await adminHttp(server.url).put(`/api/admin/clients/${client.id}/limits`, {
      maxMessagesPerSecond: 1,
    });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => sms({ recipient: '447700900001' })),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const answer of limited) {
      expectError(answer, 429, 'rate_limited');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('wrong_password and email_taken on the profile', async () => {
    const me = await registerUser(server.url);
    expectError(
      await me.http.put('/api/users/me/password', {
        currentPassword: 'not-my-password',
        newPassword: 'another-password-1',
      }),
      422,
      'wrong_password',
      'Invalid current password',
    );
    expectError(
      await httpClient(server.url).post('/api/register', {
        email: me.email,
        password: 'password-123',
        firstName: 'A',
        lastName: 'B',
      }),
      409,
      'email_taken',
      'This email is already registered',
    );
  });

  it('lists every code with its meaning in the README', async () => {
    const readme = await readFile('README.md', 'utf8');
    const from = readme.indexOf('### Error codes');
    const section = readme.slice(from, readme.indexOf('\n### ', from + 1));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` +\| (.+?) +\|$/gm)].map(
      ([, code, meaning]) => [code, meaning],
    );
    expect(rows).toEqual(
      Object.entries(ERROR_CODES).map(([code, meaning]) => [
        code,
        meaning.replaceAll('|', '\\|'),
      ]),
    );
  });

  it('lists every code in the OpenAPI Error schema', async () => {
    const doc = (await httpClient(server.url).get('/api/openapi.json')).body;
    expect(doc.components.schemas.Error.properties.code.enum).toEqual(
      ERROR_CODE_NAMES,
    );
    expect(doc.components.schemas.Error.required).toContain('code');
  });
});
