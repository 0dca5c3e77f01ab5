import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../../support/http.ts';
import { adminHttp, setPrice } from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * CONTRACT "Price list imports" (issue 30, finding 6): a CSV without entries does not wipe the
 * list unless asked to, and `price.imported` keeps the list it replaced. Its own server: the
 * import replaces the whole (global) list.
 */
let server: TestServer;
let admin: HttpClient;
beforeAll(async () => {
  server = await startServer();
  admin = adminHttp(server.url);
});
afterAll(async () => server?.close());

const HEADER = 'prefix,name,pricePerSegment,blocked';

const putCsv = (csv: string, query = '') =>
  admin.put(`/api/admin/prices.csv${query}`, csv, {
    'content-type': 'text/csv',
  });

async function wholeList() {
  const answer = await admin.get('/api/prices?count=1000');
  expect(answer.status).toBe(200);
  return answer.body.prices;
}

async function importEvents() {
  const answer = await admin.get(
    '/api/admin/audit?count=300&action=price.imported',
  );
  expect(answer.status).toBe(200);
  return answer.body.events as {
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }[];
}

describe('PUT /api/admin/prices.csv without entries', () => {
  it('is refused (400) for a header-only or empty file, and nothing changes', async () => {
    await setPrice(server.url, '4479', {
      name: 'United Kingdom mobile',
      pricePerSegment: '0.0725',
      blocked: true,
    });
    await setPrice(server.url, '33', {
      name: 'France',
      pricePerSegment: '0.05',
    });
    const before = await wholeList();
    expect(before).toHaveLength(2);
    const events = (await importEvents()).length;
    for (const csv of [
      `${HEADER}\n`,
      HEADER,
      `${HEADER}\r\n\r\n  \n`,
      '',
      '\n',
    ]) {
      for (const query of ['', '?allowEmpty=false']) {
        const refused = await putCsv(csv, query);
        expect(refused.status, JSON.stringify(csv) + query).toBe(400);
        expect(refused.body.message).toBe(
          'The price list CSV has no entries: importing it would remove every price and block. Send allowEmpty=true in the query to empty the list',
        );
      }
    }
    expect((await putCsv(`${HEADER}\n`, '?allowEmpty=yes')).status).toBe(400);
    expect(await wholeList()).toEqual(before);
    expect(await importEvents()).toHaveLength(events);
  });
});

describe('price.imported keeps the list it replaced', () => {
  it('records the replaced entries in before and the count in after, so the list can be rebuilt', async () => {
    await setPrice(server.url, '4479', {
      name: 'United Kingdom mobile',
      pricePerSegment: '0.0725',
      blocked: true,
    });
    await setPrice(server.url, '881', {
      name: 'Satellite, "Iridium"',
      pricePerSegment: '1.000001',
      blocked: true,
    });
    const exported = (await admin.get('/api/admin/prices.csv')).body as string;
    const old = await wholeList();

    const replaced = await putCsv(`${HEADER}\n1,USA,0.01,false\n`);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ count: 1 });
    const [event] = await importEvents();
    expect(event!.after).toEqual({ count: 1 });
    const kept = event!.before as {
      count: number;
      prices: {
        prefix: string;
        name: string;
        pricePerSegment: string;
        blocked: boolean;
      }[];
    };
    expect(kept.count).toBe(old.length);
    // Prices as the database's exact decimal text.
    expect(kept.prices).toContainEqual({
      prefix: '881',
      name: 'Satellite, "Iridium"',
      pricePerSegment: '1.000001',
      blocked: true,
    });
    expect(kept.prices.map((p) => p.prefix)).toEqual(
      old.map((p: { prefix: string }) => p.prefix),
    );

    // Emptying on purpose: the list it removed is kept too.
    const emptied = await putCsv(`${HEADER}\n`, '?allowEmpty=true');
    expect(emptied.status).toBe(200);
    expect(emptied.body).toEqual({ count: 0 });
    expect(await wholeList()).toEqual([]);
    const [wiped] = await importEvents();
    expect(wiped!.after).toEqual({ count: 0 });
    expect(wiped!.before).toEqual({
      count: 1,
      prices: [
        {
          prefix: '1',
          name: 'USA',
          pricePerSegment: '0.010000',
          blocked: false,
        },
      ],
    });
    expect((await putCsv('', '?allowEmpty=true')).status).toBe(200);

    // The first event's before rebuilds the list as it was.
    const csv = [
      HEADER,
      ...kept.prices.map(
        (p) =>
          `${p.prefix},"${p.name.replaceAll('"', '""')}",${p.pricePerSegment},${p.blocked}`,
      ),
    ].join('\n');
    expect((await putCsv(csv)).status).toBe(200);
    expect(await wholeList()).toEqual(old);
    expect((await admin.get('/api/admin/prices.csv')).body).toBe(exported);
  });
});
