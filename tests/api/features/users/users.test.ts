import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../support/start-server.ts';
import { httpClient } from '../../../support/http.ts';
import { registerUser, uniqueEmail } from '../../../support/seed.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

describe('POST /api/register', () => {
  it('creates a user who can then call /api/users/me with ROLE_SMS_CREATE', async () => {
    const { http, email } = await registerUser(server.url, {
      firstName: 'Grace',
    });
    const me = await http.get('/api/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email,
      firstName: 'Grace',
      lastName: 'Lovelace',
    });
    expect(me.body.roles).toEqual(['ROLE_SMS_CREATE']);
    expect(me.body).not.toHaveProperty('passwordHash');
  });

  it('answers /api/users/me with every change to the profile, while the credential stays cached', async () => {
    const { http, email } = await registerUser(server.url, {
      firstName: 'Grace',
    });
    const first = await http.get('/api/users/me');
    expect((await http.get('/api/users/me')).body).toEqual(first.body);
    const updated = await http.put('/api/users/me', {
      firstName: 'Ada',
      lastName: 'King',
      organization: 'Analytical',
      email,
    });
    expect(updated.status).toBe(200);
    const after = await http.get('/api/users/me');
    expect(after.body).toMatchObject({
      firstName: 'Ada',
      lastName: 'King',
      organization: 'Analytical',
      roles: ['ROLE_SMS_CREATE'],
    });
    expect(after.headers.get('content-type')).toBe(
      'application/json; charset=utf-8',
    );
  });

  it('refuses a duplicate e-mail, whatever its case, with 409', async () => {
    const email = uniqueEmail();
    await registerUser(server.url, { email });
    const again = await httpClient(server.url).post('/api/register', {
      email: email.toUpperCase(),
      password: 'password-123',
      firstName: 'A',
      lastName: 'B',
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      code: 'email_taken',
      message: 'This email is already registered',
    });
  });

  it('answers 400 with a message for a bad e-mail or a short password', async () => {
    const anon = httpClient(server.url);
    const bad = await anon.post('/api/register', {
      email: 'nope',
      password: 'short',
      firstName: 'A',
      lastName: 'B',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Invalid email');
    expect(bad.body.message).toContain(
      'Password must be at least 8 characters',
    );
  });
});

describe('authentication', () => {
  it('answers 401 without credentials and never asks the browser for Basic', async () => {
    const answer = await httpClient(server.url).get('/api/users/me');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBeNull();
    expect(answer.body).toMatchObject({
      statusCode: 401,
      error: 'Unauthorized',
    });
  });

  it('answers 401 for a wrong password', async () => {
    const { email } = await registerUser(server.url);
    const answer = await httpClient(server.url, {
      username: email,
      password: 'wrong-password',
    }).get('/api/users/me');
    expect(answer.status).toBe(401);
  });
});

describe('PUT /api/users/me/password', () => {
  it('answers 422 for a wrong current password and 400 for a short new one', async () => {
    const { http, password } = await registerUser(server.url);
    const wrong = await http.put('/api/users/me/password', {
      currentPassword: 'not-the-password',
      newPassword: 'new-password-1',
    });
    expect(wrong.status).toBe(422);
    const short = await http.put('/api/users/me/password', {
      currentPassword: password,
      newPassword: 'short',
    });
    expect(short.status).toBe(400);
  });

  it('changes the password: the old one stops working at once, the new one works', async () => {
    const { http, email, password } = await registerUser(server.url);
    expect((await http.get('/api/users/me')).status).toBe(200); // now cached
    const changed = await http.put('/api/users/me/password', {
      currentPassword: password,
      newPassword: 'brand-new-password',
    });
    expect(changed.status).toBe(204);
    expect((await http.get('/api/users/me')).status).toBe(401);
    const fresh = httpClient(server.url, {
      username: email,
      password: 'brand-new-password',
    });
    expect((await fresh.get('/api/users/me')).status).toBe(200);
  });
});
