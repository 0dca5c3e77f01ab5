import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminHttp,
  createClient,
  giveCredit,
  registerUser,
  setPrice,
  uniquePrefix,
} from '../../support/seed.ts';
import { waitForMessage } from '../../support/delivery.ts';
import { eventually } from '../../support/eventually.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * Every list built on selectPage (src/server/db/paging.ts) counts the whole list in a window
 * column beside the item's own columns. That column must neither overwrite an item's field
 * (a batch's `total` once answered the number of batches, not its recipients) nor change the
 * items: each list's items equal the same items read alone, and its `total` is the list's size.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ SMS_PRICE: '0.05' });
});
afterAll(async () => server?.close());

/** A customer with a funded client, two batches (3 and 1 recipients) and one single send. */
async function seeded() {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  await giveCredit(server.url, client.id, '10');
  const base = `/api/clients/${client.id}`;
  const three = await owner.http.post(`${base}/batches`, {
    recipients: ['447700900001', '447700900002', '447700900003'],
    body: 'Hello',
  });
  expect(three.status).toBe(201);
  const one = await owner.http.post(`${base}/batches`, {
    recipients: ['447700900004'],
    body: 'Hello',
  });
  expect(one.status).toBe(201);
  const single = await owner.http.post(`${base}/messages/sms`, {
    sender: 'Shop',
    recipient: '447700900005',
    body: 'Hello',
  });
  expect(single.status).toBe(201);
  return { owner, client, base, three: three.body, one: one.body };
}

describe('lists paged by selectPage', () => {
  it("keep each batch's own total (its recipients), for the customer and for staff", async () => {
    const { owner, client, base, three, one } = await seeded();
    const admin = adminHttp(server.url);
    // A batch's states are live: compare the list with the batch read alone once delivery is
    // done with it.
    await eventually(
      async () => (await owner.http.get(`${base}/batches/${three.id}`)).body,
      (batch) => batch.states?.DELIVERED === 3,
      { what: 'the batch of three delivered' },
    );
    for (const [http, path] of [
      [owner.http, `${base}/batches`],
      [admin, `/api/admin/clients/${client.id}/batches`],
    ] as const) {
      const list = await http.get(`${path}?count=10`);
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(2);
      expect(
        list.body.batches.map((b: any) => [b.id, b.total, b.amount]),
      ).toEqual([
        [one.id, 1, 0.05],
        [three.id, 3, 0.15],
      ]);
      // A page of one still counts the whole list, and each item is the batch read alone.
      const page = await http.get(`${path}?count=1&offset=1`);
      expect(page.body).toMatchObject({ total: 2, count: 1, offset: 1 });
      const alone = await http.get(`${path}/${three.id}`);
      expect(page.body.batches).toEqual([alone.body]);
      // Past the end: no row carries the count, which is still the list's.
      const past = await http.get(`${path}?count=1&offset=5`);
      expect(past.body).toMatchObject({ total: 2, count: 1, batches: [] });
    }
  });

  it('answer the items read alone and the whole count, for messages, clients, users and route splits', async () => {
    const { owner, client, base } = await seeded();
    const admin = adminHttp(server.url);
    const split = await admin.post('/api/admin/routes/split', {
      userId: owner.id,
      clientId: client.id,
      deliveryMethod: 'VONAGE_SMS',
    });
    expect(split.status).toBe(201);
    // Each item is compared with the same thing read alone: wait until the simulator has
    // delivered every message, or a state could change between the list and the read.
    const sent = await owner.http.get(`${base}/messages?count=100`);
    for (const message of sent.body.messages) {
      await waitForMessage(owner.http, client.id, message.id);
    }
    const lists: {
      what: string;
      http: typeof admin;
      list: string;
      key: string;
      one: (item: any) => string;
      total: number;
    }[] = [
      {
        what: 'messages',
        http: owner.http,
        list: `${base}/messages`,
        key: 'messages',
        one: (m) => `${base}/messages/${m.id}`,
        total: 5,
      },
      {
        what: 'staff messages',
        http: admin,
        list: `/api/admin/clients/${client.id}/messages`,
        key: 'messages',
        one: (m) => `/api/admin/clients/${client.id}/messages/${m.id}`,
        total: 5,
      },
      {
        what: 'clients',
        http: owner.http,
        list: '/api/clients',
        key: 'clients',
        one: (c) => `/api/clients/${c.id}`,
        total: 1,
      },
      {
        what: 'staff clients',
        http: admin,
        list: `/api/admin/clients?userId=${owner.id}`,
        key: 'clients',
        one: (c) => `/api/admin/clients/${c.id}`,
        total: 1,
      },
      {
        what: 'users',
        http: admin,
        list: `/api/admin/users?q=${encodeURIComponent(owner.email)}`,
        key: 'users',
        one: (u) => `/api/admin/users/${u.id}`,
        total: 1,
      },
      {
        what: 'route splits',
        http: admin,
        list: `/api/admin/routes/split?clientId=${client.id}`,
        key: 'routes',
        one: (r) => `/api/admin/routes/split/${r.id}`,
        total: 1,
      },
    ];
    for (const { what, http, list, key, one, total } of lists) {
      const sep = list.includes('?') ? '&' : '?';
      const answer = await http.get(`${list}${sep}count=300`);
      expect(answer.status, what).toBe(200);
      expect(answer.body.total, what).toBe(total);
      // `count` is the page size in every list, even on a page holding fewer.
      expect(answer.body.count, what).toBe(300);
      expect(answer.body[key], what).toHaveLength(total);
      for (const item of answer.body[key]) {
        const alone = await http.get(one(item));
        expect(alone.status, what).toBe(200);
        // A message read alone also carries its attempts; a route split listed also carries
        // its realised share: the smaller of the two is part of the other.
        if (key === 'routes') expect(item, what).toMatchObject(alone.body);
        else expect(alone.body, what).toMatchObject(item);
        expect(Object.keys(item), what).not.toContain('page_total__');
      }
      const past = await http.get(`${list}${sep}count=1&offset=${total + 3}`);
      expect(past.body.total, what).toBe(total);
      expect(past.body[key], what).toEqual([]);
    }
  });

  it('count the whole list for the ledger, the audit log and the price list', async () => {
    const { owner, client, base } = await seeded();
    const admin = adminHttp(server.url);
    const prefix = uniquePrefix();
    await setPrice(server.url, prefix, { name: 'Paging', pricePerSegment: 1 });
    await setPrice(server.url, `${prefix}1`, {
      name: 'Paging',
      pricePerSegment: 2,
    });
    const lists = [
      // Free credit and one debit per message (3 + 1 + 1).
      {
        http: owner.http,
        list: `${base}/balances/default/ledger?`,
        key: 'entries',
        total: 6,
      },
      // Events on the client and its default balance (same id): how many is the audit
      // feature's business; the list's size is what is checked.
      {
        http: admin,
        list: `/api/admin/audit?targetId=${client.id}&`,
        key: 'events',
        total: undefined,
      },
      {
        http: admin,
        list: `/api/prices?q=${prefix}&`,
        key: 'prices',
        total: 2,
      },
    ];
    for (const { http, list, key, total } of lists) {
      const all = await http.get(`${list}count=300`);
      expect(all.status, list).toBe(200);
      if (total !== undefined) expect(all.body.total, list).toBe(total);
      expect(all.body.total, list).toBeGreaterThan(0);
      expect(all.body[key], list).toHaveLength(all.body.total);
      expect(all.body.count, list).toBe(300);
      // Page by page, the same items in the same order, each page counting the whole list.
      const paged = [];
      for (let offset = 0; offset < all.body.total; offset++) {
        const page = await http.get(`${list}count=1&offset=${offset}`);
        expect(page.body.total, list).toBe(all.body.total);
        paged.push(...page.body[key]);
      }
      expect(paged, list).toEqual(all.body[key]);
    }
  });
});
