import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient, type HttpClient } from '../../support/http.ts';
import {
  adminHttp,
  createClient,
  giveCredit,
  registerUser,
} from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

let server: TestServer;
let customer: HttpClient;
let clientId: string;
beforeAll(async () => {
  server = await startServer();
  customer = (await registerUser(server.url)).http;
  clientId = (await createClient(customer)).id;
  await giveCredit(server.url, clientId, 5);
});
afterAll(async () => server.close());

const SHAPE = {
  statusCode: expect.any(Number),
  error: expect.any(String),
  code: expect.any(String),
  message: expect.any(String),
};
const smsPath = () => `/api/clients/${clientId}/messages/sms`;

describe('error answers share one shape {statusCode, error, message}', () => {
  it('answers 400 for malformed JSON, on customer and admin calls', async () => {
    for (const [http, path] of [
      [customer, smsPath()],
      [customer, '/api/clients'],
      [adminHttp(server.url), '/api/admin/clients'],
      [adminHttp(server.url), '/api/admin/routes/split'],
    ] as const) {
      for (const text of ['{"sender": "A",', '{bad json}', '[', 'null x']) {
        const answer = await http.post(path, text);
        expect(answer.status, `${path} ${text}`).toBe(400);
        expect(answer.body).toEqual({
          ...SHAPE,
          statusCode: 400,
          code: 'bad_request',
        });
        expect(answer.body.error).toBe('Bad Request');
      }
    }
  });

  it('answers 400 naming the field for wrong types', async () => {
    const answer = await customer.post(smsPath(), {
      sender: 'Shop',
      recipient: '447700900123',
      body: 12,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      ...SHAPE,
      statusCode: 400,
      code: 'validation_failed',
    });
    expect(answer.body.message).toContain('body');
    const array = await customer.post(smsPath(), ['not', 'an', 'object']);
    expect(array.status).toBe(400);
  });

  it('answers 413 for a body over 64 KB, and takes one just under it', async () => {
    const over = await customer.post(smsPath(), {
      sender: 'Shop',
      recipient: '447700900123',
      body: 'a'.repeat(65 * 1024),
    });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      ...SHAPE,
      statusCode: 413,
      error: 'Payload Too Large',
      code: 'payload_too_large',
    });
    // Under the limit the body is parsed, and the segment rule answers instead.
    const under = await customer.post(smsPath(), {
      sender: 'Shop',
      recipient: '447700900123',
      body: 'a'.repeat(60 * 1024),
    });
    expect(under.status).toBe(400);
    expect(under.body.message).toContain('at most 10 segments');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const answer = await customer.post(smsPath(), 'sender=Shop', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({
      ...SHAPE,
      statusCode: 415,
      code: 'unsupported_media_type',
    });
  });

  it('answers 400 for a malformed uuid in any path', async () => {
    const admin = adminHttp(server.url);
    for (const [http, method, path] of [
      [customer, 'GET', '/api/clients/abc/balances/default'],
      [customer, 'POST', '/api/clients/abc/messages/sms'],
      [admin, 'GET', '/api/admin/clients/abc'],
      [admin, 'GET', '/api/admin/users/abc'],
      [admin, 'GET', '/api/admin/routes/split/abc'],
      [admin, 'GET', `/api/admin/clients/${clientId}-x/balances/default`],
    ] as const) {
      const body =
        method === 'POST'
          ? { sender: 'Shop', recipient: '447700900123', body: 'x' }
          : undefined;
      const answer = await http.request(method, path, body);
      expect(answer.status, path).toBe(400);
      expect(answer.body).toEqual({ ...SHAPE, statusCode: 400 });
      expect(answer.body.message).toContain('Invalid id');
    }
  });

  it('answers 404 for unknown routes, with or without credentials', async () => {
    for (const http of [httpClient(server.url), customer]) {
      for (const path of [
        '/api/nope',
        '/api/admin/nope',
        `/api/clients/${clientId}/balances/other`,
      ]) {
        const answer = await http.get(path);
        expect(answer.status, path).toBe(404);
        expect(answer.body).toEqual({
          statusCode: 404,
          error: 'Not Found',
          code: 'not_found',
          message: expect.stringContaining('not found'),
        });
      }
    }
  });

  it('answers 400, not 500, for text PostgreSQL cannot store (NUL)', async () => {
    const before = (
      await customer.get(`/api/clients/${clientId}/balances/default`)
    ).body.amount;
    const sms = await customer.post(smsPath(), {
      sender: 'Shop',
      recipient: '447700900123',
      body: 'a\u0000b',
    });
    expect(sms.status).toBe(400);
    expect(sms.body).toEqual({ ...SHAPE, statusCode: 400 });
    expect(
      (await customer.get(`/api/clients/${clientId}/balances/default`)).body
        .amount,
    ).toBe(before);
    const rename = await adminHttp(server.url).put(
      `/api/admin/clients/${clientId}`,
      { name: 'x\u0000' },
    );
    expect(rename.status).toBe(400);
    const login = await httpClient(server.url, {
      username: 'a\u0000@example.test',
      password: 'password-123',
    }).get('/api/users/me');
    expect(login.status).toBeLessThan(500);
  });

  it('answers 401 without credentials on customer calls, never asking for Basic', async () => {
    const anon = httpClient(server.url);
    for (const answer of [
      await anon.get(`/api/clients/${clientId}/balances/default`),
      await anon.post(smsPath(), {
        sender: 'Shop',
        recipient: '447700900123',
        body: 'x',
      }),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBeNull();
      expect(answer.body).toEqual({ ...SHAPE, statusCode: 401 });
    }
  });
});
