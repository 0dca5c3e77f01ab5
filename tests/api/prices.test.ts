import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../support/http.ts';
import {
  adminHttp,
  registerUser,
  setPrice,
  setRoles,
} from '../support/seed.ts';
import { startServer, type TestServer } from '../support/start-server.ts';

let server: TestServer;
let admin: HttpClient;
beforeAll(async () => {
  server = await startServer();
  admin = adminHttp(server.url);
});
afterAll(async () => server.close());

/** A prefix no other test uses: 12 digits starting with 99. */
function freshPrefix(): string {
  return `99${String(randomInt(10 ** 9)).padStart(10, '0')}`;
}

interface AuditEvent {
  action: string;
  actorEmail: string | null;
  targetType: string;
  targetId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The `price.changed` / `price.imported` events, newest first, of one target or all. */
async function priceEvents(action: string, prefix?: string) {
  const answer = await admin.get(`/api/admin/audit?count=300&action=${action}`);
  expect(answer.status).toBe(200);
  const events = answer.body.events as AuditEvent[];
  return prefix ? events.filter((e) => e.targetId === prefix) : events;
}

describe('PUT /api/admin/prices/{prefix}', () => {
  it('creates, then replaces, an entry; blocked defaults to false', async () => {
    const prefix = freshPrefix();
    const created = await admin.put(`/api/admin/prices/${prefix}`, {
      name: 'Testland mobile',
      pricePerSegment: 0.0725,
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      prefix,
      name: 'Testland mobile',
      pricePerSegment: 0.0725,
      blocked: false,
    });

    const replaced = await admin.put(`/api/admin/prices/${prefix}`, {
      name: 'Testland premium',
      pricePerSegment: '1.123456',
      blocked: true,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({
      prefix,
      name: 'Testland premium',
      pricePerSegment: 1.123456,
      blocked: true,
    });
  });

  it('keeps prices exact: 6 decimal places, large values, zero', async () => {
    for (const [sent, shown] of [
      ['0.000001', 0.000001],
      ['999999999.999999', 999999999.999999],
      [0, 0],
      ['0.1', 0.1],
    ] as const) {
      const prefix = freshPrefix();
      const answer = await setPrice(server.url, prefix, {
        name: 'Exact',
        pricePerSegment: sent,
      });
      expect(answer.pricePerSegment).toBe(shown);
    }
  });

  it('refuses a bad prefix, price or name with 400 and changes nothing', async () => {
    const prefix = freshPrefix();
    const good = { name: 'Good', pricePerSegment: 0.05 };
    for (const [path, body, message] of [
      ['44a', good, /Prefix must be 1 to 15 digits/],
      ['1234567890123456', good, /Prefix must be 1 to 15 digits/],
      ['+44', good, /Prefix must be 1 to 15 digits/],
      [prefix, { ...good, pricePerSegment: 0.1234567 }, /at most 6 decimal/],
      [prefix, { ...good, pricePerSegment: '0.1234567' }, /at most 6 decimal/],
      [prefix, { ...good, pricePerSegment: -0.01 }, /at least 0/],
      [prefix, { ...good, pricePerSegment: '1000000000' }, /Price per segment/],
      [prefix, { ...good, pricePerSegment: 'cheap' }, /Price per segment/],
      [prefix, { ...good, pricePerSegment: null }, /Price per segment/],
      [prefix, { ...good, name: 'x'.repeat(101) }, /Name is too long/],
      [prefix, { ...good, name: '   ' }, /Name is required/],
      [prefix, { pricePerSegment: 0.05 }, /name/i],
      [prefix, { ...good, blocked: 'yes' }, /Blocked must be true or false/],
    ] as const) {
      const answer = await admin.put(`/api/admin/prices/${path}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    expect((await admin.delete(`/api/admin/prices/${prefix}`)).status).toBe(
      404,
    );
  });

  it('takes a 15-digit prefix and a 100-character name', async () => {
    const prefix = `${freshPrefix()}123`;
    const answer = await setPrice(server.url, prefix, {
      name: 'n'.repeat(100),
      pricePerSegment: 1,
    });
    expect(answer.prefix).toHaveLength(15);
    expect(answer.name).toHaveLength(100);
  });

  it('records one price.changed event per PUT, with before and after', async () => {
    const prefix = freshPrefix();
    await setPrice(server.url, prefix, {
      name: 'Audited',
      pricePerSegment: '0.05',
    });
    await setPrice(server.url, prefix, {
      name: 'Audited',
      pricePerSegment: '0.06',
      blocked: true,
    });
    const [replaced, created, ...rest] = await priceEvents(
      'price.changed',
      prefix,
    );
    expect(rest).toEqual([]);
    expect(created).toMatchObject({
      actorEmail: 'admin@example.test',
      targetType: 'price',
      targetId: prefix,
      before: null,
      after: { name: 'Audited', pricePerSegment: 0.05, blocked: false },
    });
    expect(replaced).toMatchObject({
      targetType: 'price',
      targetId: prefix,
      before: { name: 'Audited', pricePerSegment: 0.05, blocked: false },
      after: { name: 'Audited', pricePerSegment: 0.06, blocked: true },
    });
  });
});

describe('DELETE /api/admin/prices/{prefix}', () => {
  it('deletes an entry (204, audited), then answers 404', async () => {
    const prefix = freshPrefix();
    await setPrice(server.url, prefix, { name: 'Gone', pricePerSegment: 2 });
    const deleted = await admin.delete(`/api/admin/prices/${prefix}`);
    expect(deleted.status).toBe(204);
    const [event] = await priceEvents('price.changed', prefix);
    expect(event).toMatchObject({
      targetType: 'price',
      targetId: prefix,
      before: { name: 'Gone', pricePerSegment: 2, blocked: false },
      after: null,
    });

    const again = await admin.delete(`/api/admin/prices/${prefix}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Price not found');
    expect(await priceEvents('price.changed', prefix)).toHaveLength(2);
  });

  it('refuses a malformed prefix with 400', async () => {
    expect((await admin.delete('/api/admin/prices/4x4')).status).toBe(400);
  });
});

describe('who may change prices', () => {
  it('refuses 403 to a user without ROLE_PRICE_ADMIN, allows one holding it', async () => {
    const prefix = freshPrefix();
    const staff = await registerUser(server.url);
    await setRoles(server.url, staff.id, ['ROLE_CLIENT_ADMIN']);
    const body = { name: 'Staff', pricePerSegment: 0.05 };
    expect(
      (await staff.http.put(`/api/admin/prices/${prefix}`, body)).status,
    ).toBe(403);
    await setPrice(server.url, prefix, body);
    expect(
      (await staff.http.delete(`/api/admin/prices/${prefix}`)).status,
    ).toBe(403);

    await setRoles(server.url, staff.id, ['ROLE_PRICE_ADMIN']);
    expect(
      (await staff.http.put(`/api/admin/prices/${prefix}`, body)).status,
    ).toBe(200);
    expect(
      (await staff.http.delete(`/api/admin/prices/${prefix}`)).status,
    ).toBe(204);
  });
});
