import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient, type HttpClient } from '../../../support/http.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  registerUser,
  setPrice,
  setRoles,
  uniquePrefix,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

let server: TestServer;
let admin: HttpClient;
beforeAll(async () => {
  server = await startServer();
  admin = adminHttp(server.url);
});
afterAll(async () => server.close());

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
    const prefix = uniquePrefix();
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
      const prefix = uniquePrefix();
      const answer = await setPrice(server.url, prefix, {
        name: 'Exact',
        pricePerSegment: sent,
      });
      expect(answer.pricePerSegment).toBe(shown);
    }
  });

  it('refuses a bad prefix, price or name with 400 and changes nothing', async () => {
    const prefix = uniquePrefix();
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
    const prefix = `${uniquePrefix()}123`;
    const answer = await setPrice(server.url, prefix, {
      name: 'n'.repeat(100),
      pricePerSegment: 1,
    });
    expect(answer.prefix).toHaveLength(15);
    expect(answer.name).toHaveLength(100);
  });

  it('records one price.changed event per PUT, with before and after', async () => {
    const prefix = uniquePrefix();
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
    const prefix = uniquePrefix();
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
    const prefix = uniquePrefix();
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

describe('GET /api/prices', () => {
  it('answers any signed-in user or API client, with the currency and default price', async () => {
    const prefix = uniquePrefix();
    await setPrice(server.url, prefix, {
      name: 'Shown',
      pricePerSegment: 0.0725,
    });
    const customer = await registerUser(server.url);
    const client = await createClient(customer.http);
    for (const http of [customer.http, clientHttp(server.url, client), admin]) {
      const answer = await http.get(`/api/prices?q=${prefix}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        currency: 'EUR',
        defaultPricePerSegment: 0.05,
        total: 1,
        count: 30,
        offset: 0,
        prices: [
          { prefix, name: 'Shown', pricePerSegment: 0.0725, blocked: false },
        ],
      });
    }
    expect((await httpClient(server.url).get('/api/prices')).status).toBe(401);
  });

  it('finds prefixes starting with q or names holding it (any case), by prefix', async () => {
    const base = uniquePrefix().slice(0, 10);
    const word = randomBytes(4).toString('hex');
    await setPrice(server.url, `${base}2`, { name: 'B', pricePerSegment: 1 });
    await setPrice(server.url, `${base}1`, { name: 'A', pricePerSegment: 1 });
    await setPrice(server.url, `${base}10`, { name: 'A2', pricePerSegment: 1 });
    const named = uniquePrefix();
    await setPrice(server.url, named, {
      name: `Zone ${word.toUpperCase()} mobile`,
      pricePerSegment: 1,
    });

    const byPrefix = await admin.get(`/api/prices?q=${base}`);
    expect(
      byPrefix.body.prices.map((p: { prefix: string }) => p.prefix),
    ).toEqual([`${base}1`, `${base}10`, `${base}2`]);
    expect(byPrefix.body.total).toBe(3);
    // A prefix only matches from its start.
    expect((await admin.get(`/api/prices?q=${base.slice(1)}`)).body.total).toBe(
      0,
    );

    const byName = await admin.get(`/api/prices?q=${word}`);
    expect(byName.body.prices).toEqual([
      expect.objectContaining({ prefix: named }),
    ]);
    // LIKE wildcards are taken literally.
    for (const q of ['%', '_', `${word.slice(0, 2)}%${word.slice(3)}`]) {
      expect(
        (await admin.get(`/api/prices?q=${encodeURIComponent(q)}`)).body.total,
        q,
      ).toBe(0);
    }
  });

  it('pages with count and offset', async () => {
    const base = uniquePrefix().slice(0, 10);
    for (const digit of [1, 2, 3, 4, 5]) {
      await setPrice(server.url, `${base}${digit}`, {
        name: `P${digit}`,
        pricePerSegment: digit,
      });
    }
    const page = await admin.get(`/api/prices?q=${base}&count=2&offset=2`);
    expect(page.body).toMatchObject({ total: 5, count: 2, offset: 2 });
    expect(page.body.prices.map((p: { name: string }) => p.name)).toEqual([
      'P3',
      'P4',
    ]);
    const past = await admin.get(`/api/prices?q=${base}&count=2&offset=10`);
    expect(past.body).toMatchObject({ total: 5, prices: [] });
    expect((await admin.get('/api/prices?count=0')).status).toBe(400);
  });
});

const CSV_HEADER = 'prefix,name,pricePerSegment,blocked';

async function putCsv(http: HttpClient, csv: string) {
  return http.put('/api/admin/prices.csv', csv, { 'content-type': 'text/csv' });
}

async function wholeList() {
  const answer = await admin.get('/api/prices?count=1000');
  expect(answer.status).toBe(200);
  return answer.body.prices;
}

/** The import replaces the whole list: these run last, one after the other. */
describe('the price list as CSV', () => {
  it('exports the list, and importing the export gives the same list back', async () => {
    await setPrice(server.url, '44', {
      name: 'United Kingdom, "mobile"',
      pricePerSegment: '0.0725',
    });
    await setPrice(server.url, '4479', {
      name: '=cmd|calc',
      pricePerSegment: '1.000001',
      blocked: true,
    });
    const exported = await admin.get('/api/admin/prices.csv');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = exported.body as string;
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(CSV_HEADER);
    expect(lines).toContain('44,"United Kingdom, ""mobile""",0.0725,false');
    // A name that a spreadsheet would run as a formula is defused.
    expect(lines).toContain("4479,'=cmd|calc,1.000001,true");

    const before = await wholeList();
    expect(before.length).toBe(lines.length - 1);
    const imported = await putCsv(admin, text);
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ count: before.length });
    expect(await wholeList()).toEqual(before);
    expect((await admin.get('/api/admin/prices.csv')).body).toBe(text);
  });

  it('replaces the whole list and records one price.imported event', async () => {
    const events = (await priceEvents('price.imported')).length;
    const answer = await putCsv(
      admin,
      [
        CSV_HEADER,
        '1,USA,0.01,false',
        '33,France,0.07,',
        '7,Russia,0.5,true',
      ].join('\n'),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ count: 3 });
    expect(await wholeList()).toEqual([
      { prefix: '1', name: 'USA', pricePerSegment: 0.01, blocked: false },
      { prefix: '33', name: 'France', pricePerSegment: 0.07, blocked: false },
      { prefix: '7', name: 'Russia', pricePerSegment: 0.5, blocked: true },
    ]);
    const [event, ...rest] = await priceEvents('price.imported');
    expect(rest).toHaveLength(events);
    expect(event).toMatchObject({
      actorEmail: 'admin@example.test',
      targetType: 'price',
      targetId: null,
      after: { count: 3 },
    });
  });

  it('refuses a file with a bad line (400 naming it) and changes nothing', async () => {
    const before = await wholeList();
    const events = (await priceEvents('price.imported')).length;
    for (const [lines, message] of [
      [['44,UK,0.05,false', '4x,Bad,0.05,false'], /^Line 3: Prefix must be/],
      [
        ['44,UK,0.05,false', '45,Bad,0.1234567,false'],
        /^Line 3: .*6 decimal places/,
      ],
      [['44,UK,0.05,false', '45,Bad,-1,false'], /^Line 3: .*at least 0/],
      [
        ['44,UK,0.05,false', `45,${'n'.repeat(101)},1,false`],
        /^Line 3: Name is too long/,
      ],
      [['44,UK,0.05,false', '45,Bad,1'], /^Line 3: expected 4 fields/],
      [
        ['44,UK,0.05,false', '45,X,1,false', '44,Again,1,false'],
        /^Line 4: prefix 44 is already on line 2/,
      ],
    ] as const) {
      const answer = await putCsv(admin, [CSV_HEADER, ...lines].join('\n'));
      expect(answer.status, lines.join(' | ')).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    const noHeader = await putCsv(admin, '44,UK,0.05,false\n');
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.message).toBe(
      `Line 1: the header must be ${CSV_HEADER}`,
    );
    // Not CSV at all: JSON is refused, and a body without a type too.
    expect(
      (await admin.put('/api/admin/prices.csv', { rows: [] })).status,
    ).toBe(400);

    expect(await wholeList()).toEqual(before);
    expect(await priceEvents('price.imported')).toHaveLength(events);
  });

  it('is for ROLE_PRICE_ADMIN only (403), export and import alike', async () => {
    const before = await wholeList();
    const staff = await registerUser(server.url);
    await setRoles(server.url, staff.id, ['ROLE_CLIENT_ADMIN']);
    expect((await staff.http.get('/api/admin/prices.csv')).status).toBe(403);
    expect((await putCsv(staff.http, `${CSV_HEADER}\n`)).status).toBe(403);
    expect(await wholeList()).toEqual(before);
  });

  it('imports 10,000 lines in one go, in a few seconds', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => {
      const prefix = String(100_000 + i);
      const price = `0.${String(i).padStart(6, '0')}`;
      return `${prefix},"Zone ${i}, mobile",${price},${i % 7 === 0}`;
    });
    const started = performance.now();
    const answer = await putCsv(admin, [CSV_HEADER, ...lines].join('\n'));
    const seconds = (performance.now() - started) / 1000;
    console.log(`10,000-line price import: ${seconds.toFixed(2)} s`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ count: 10_000 });
    expect(seconds).toBeLessThan(10);

    const page = await admin.get('/api/prices?count=3&offset=9997');
    expect(page.body.total).toBe(10_000);
    expect(page.body.prices).toEqual([
      {
        prefix: '109997',
        name: 'Zone 9997, mobile',
        pricePerSegment: 0.009997,
        blocked: false,
      },
      {
        prefix: '109998',
        name: 'Zone 9998, mobile',
        pricePerSegment: 0.009998,
        blocked: false,
      },
      {
        prefix: '109999',
        name: 'Zone 9999, mobile',
        pricePerSegment: 0.009999,
        blocked: false,
      },
    ]);
    const exported = (await admin.get('/api/admin/prices.csv')).body as string;
    expect(exported.trimEnd().split('\r\n')).toHaveLength(10_001);
    expect(exported).toContain('\r\n107000,"Zone 7000, mobile",0.007,true\r\n');
  });

  it('refuses a body over 2 MB with 413', async () => {
    const line = `1,${'x'.repeat(90)},1,false\n`;
    const answer = await putCsv(admin, CSV_HEADER + '\n' + line.repeat(24_000));
    expect(answer.status).toBe(413);
  });
});
