import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../testing/msw-server';
import { mockApi } from '../testing/mock-api';
import { apiRequest, unwrap } from './api-client';
import { ApiError } from './api-error';
import { getAuthNotice } from './auth-notice';
import { getCredentials, saveCredentials } from './credentials';

function login() {
  saveCredentials({ email: 'ada@example.test', password: 'pässword-1' });
}

describe('apiRequest', () => {
  it("fails with 'Not logged in' and sends nothing when no credentials are stored", async () => {
    const { requests } = mockApi({});
    await expect(apiRequest('GET', '/users/me')).rejects.toThrow(
      'Not logged in',
    );
    window.localStorage.setItem('email', 'ada@example.test');
    await expect(apiRequest('GET', '/users/me')).rejects.toThrow(
      'Not logged in',
    );
    expect(requests).toEqual([]);
  });

  it('sends Basic authorization built from the stored e-mail and password, and JSON', async () => {
    login();
    const { requests } = mockApi({
      'PUT /api/clients/abc': { body: { id: 'abc', name: 'New' } },
    });
    await apiRequest('PUT', '/clients/abc', { body: { name: 'New' } });
    const [request] = requests;
    const expected = `Basic ${Buffer.from('ada@example.test:pässword-1').toString('base64')}`;
    expect(request?.headers.get('authorization')).toBe(expected);
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.body).toEqual({ name: 'New' });
  });

  it('sends no authorization on public calls and puts the query in the query string', async () => {
    const { requests } = mockApi({ 'GET /api/config': { body: {} } });
    await apiRequest('GET', '/config', {
      auth: false,
      query: { count: 30, offset: 0, skip: undefined },
    });
    expect(requests[0]?.headers.get('authorization')).toBeNull();
    expect(requests[0]?.search).toBe('?count=30&offset=0');
  });

  it('supports GET, POST, PUT, PATCH and DELETE', async () => {
    login();
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
    const { requests } = mockApi(
      Object.fromEntries(
        methods.map((m) => [`${m} /api/thing`, { status: 204 }]),
      ),
    );
    for (const method of methods) await apiRequest(method, '/thing');
    expect(requests.map((r) => r.method)).toEqual([...methods]);
  });

  it('returns ok, status and the parsed body, or no body when the answer is empty', async () => {
    login();
    mockApi({
      'GET /api/users/me': { body: { id: 'u1' } },
      'DELETE /api/clients/c1': { status: 204 },
    });
    expect(await apiRequest('GET', '/users/me')).toEqual({
      ok: true,
      status: 200,
      body: { id: 'u1' },
    });
    expect(await apiRequest('DELETE', '/clients/c1')).toEqual({
      ok: true,
      status: 204,
      body: undefined,
    });
  });

  it("logs 'Received {status} for {url}' when the answer is not ok", async () => {
    login();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(
      http.get('/api/clients/missing', () =>
        HttpResponse.json(
          { statusCode: 404, error: 'Not Found', message: 'Client not found' },
          { status: 404 },
        ),
      ),
    );
    const answer = await apiRequest('GET', '/clients/missing');
    expect(answer).toMatchObject({ ok: false, status: 404 });
    expect(warn).toHaveBeenCalledWith('Received 404 for /api/clients/missing');
    expect(() => unwrap(answer)).toThrow(ApiError);
    expect(() => unwrap(answer)).toThrow('Client not found');
  });

  it.each([401, 403])(
    'on %i clears the credentials and goes to #/login with a notice',
    async (status) => {
      login();
      window.location.hash = '#/billing/balance';
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      server.use(
        http.get('/api/users/me', () =>
          HttpResponse.json({ message: 'no' }, { status }),
        ),
      );
      const answer = await apiRequest('GET', '/users/me');
      expect(answer.status).toBe(status);
      expect(getCredentials()).toBeNull();
      expect(window.localStorage.getItem('email')).toBeNull();
      expect(window.localStorage.getItem('password')).toBeNull();
      expect(window.location.hash).toBe('#/login');
      expect(getAuthNotice()?.tone).toBe('error');
    },
  );

  it('with refusalIsAnswer, answers a coded refusal of the request (403) and keeps the user signed in; a forbidden 403 still signs out', async () => {
    login();
    window.location.hash = '#/messaging/inbox/447700900123';
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const refusal = {
      statusCode: 403,
      code: 'recipient_opted_out',
      message: '+447700900123 has opted out of your messages',
    };
    server.use(
      http.post('/api/clients/c1/messages/sms', () =>
        HttpResponse.json(refusal, { status: 403 }),
      ),
      http.post('/api/clients/c2/messages/sms', () =>
        HttpResponse.json(
          { statusCode: 403, code: 'forbidden', message: 'Forbidden' },
          { status: 403 },
        ),
      ),
    );
    const answer = await apiRequest('POST', '/clients/c1/messages/sms', {
      body: {},
      refusalIsAnswer: true,
    });
    expect(answer).toMatchObject({ ok: false, status: 403, body: refusal });
    expect(() => unwrap(answer)).toThrow(
      '+447700900123 has opted out of your messages',
    );
    expect(getCredentials()).not.toBeNull();
    expect(window.location.hash).toBe('#/messaging/inbox/447700900123');

    // Without the option the same refusal signs out, as spec §8 says of any 403.
    await apiRequest('POST', '/clients/c1/messages/sms', { body: {} });
    expect(getCredentials()).toBeNull();
    expect(window.location.hash).toBe('#/login');

    login();
    window.location.hash = '#/messaging/inbox/447700900123';
    await apiRequest('POST', '/clients/c2/messages/sms', {
      body: {},
      refusalIsAnswer: true,
    });
    expect(getCredentials()).toBeNull();
    expect(window.location.hash).toBe('#/login');
  });

  it('logs and re-throws network errors', async () => {
    login();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(http.get('/api/users/me', () => HttpResponse.error()));
    await expect(apiRequest('GET', '/users/me')).rejects.toThrow(TypeError);
    expect(warn).toHaveBeenCalledWith(
      'Network error for /api/users/me',
      expect.any(TypeError),
    );
    expect(getCredentials()).not.toBeNull();
  });
});

describe("apiRequest with responseType 'text'", () => {
  it('gives an ok answer as its text, even one that would parse as JSON, and still reads JSON errors', async () => {
    login();
    server.use(
      http.get('/api/report.csv', () =>
        HttpResponse.text('42', { headers: { 'Content-Type': 'text/csv' } }),
      ),
      http.get('/api/missing.csv', () =>
        HttpResponse.json(
          { statusCode: 404, error: 'Not Found', message: 'No such client' },
          { status: 404 },
        ),
      ),
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ok = await apiRequest('GET', '/report.csv', { responseType: 'text' });
    expect(ok.body).toBe('42');
    const missing = await apiRequest('GET', '/missing.csv', {
      responseType: 'text',
    });
    expect(() => unwrap(missing)).toThrow(new ApiError(404, missing.body));
    expect(missing.body).toMatchObject({ message: 'No such client' });
  });
});

describe('apiRequest with a contentType', () => {
  it('sends a string body as it is with that type (a CSV upload), not as JSON', async () => {
    login();
    const { requests } = mockApi({
      'PUT /api/admin/prices.csv': { body: { count: 1 } },
    });
    const csv = 'prefix,name,pricePerSegment,blocked\n44,"UK",0.07,false\n';
    const answer = await apiRequest('PUT', '/admin/prices.csv', {
      body: csv,
      contentType: 'text/csv',
    });
    expect(answer.body).toEqual({ count: 1 });
    expect(requests[0]?.headers.get('content-type')).toBe('text/csv');
    expect(requests[0]?.body).toBe(csv);
  });
});
