// @also-on-pglite: assigning takes the number's row lock and inserts on conflict, on PGlite's one connection too.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpClient } from '../../../support/http.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  registerUser,
  setRoles,
} from '../../../support/seed.ts';
import {
  ADMIN,
  startServer,
  type TestServer,
} from '../../../support/start-server.ts';

let server: TestServer;
let admin: HttpClient;
beforeAll(async () => {
  server = await startServer();
  admin = adminHttp(server.url);
});
afterAll(async () => server.close());

/** A 12-digit number starting 4470 that no other test of this file uses. */
const used = new Set<string>();
function uniqueNumber(): string {
  for (;;) {
    const number = `4470${String(randomInt(10 ** 8)).padStart(8, '0')}`;
    if (!used.has(number)) {
      used.add(number);
      return number;
    }
  }
}

async function ownerWithClient(name = 'Shop') {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http, name);
  return { ...owner, client };
}

interface AuditEvent {
  action: string;
  actorEmail: string | null;
  targetType: string;
  targetId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
}

/** The audit events of one number, newest first: the log's target filter takes its digits. */
async function numberEvents(number: string): Promise<AuditEvent[]> {
  const answer = await admin.get(
    `/api/admin/audit?count=300&targetId=${number}`,
  );
  expect(answer.status).toBe(200);
  const events = answer.body.events as AuditEvent[];
  expect(events.every((event) => event.targetType === 'number')).toBe(true);
  return events;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('PUT /api/admin/numbers/{number}', () => {
  it('assigns a new number to a client, which its owner and staff then list', async () => {
    const { client, http } = await ownerWithClient();
    const number = uniqueNumber();
    const put = await admin.put(`/api/admin/numbers/${number}`, {
      clientId: client.id,
      helpText: '  Shop support: call 0800 123 456.  ',
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      number,
      clientId: client.id,
      helpText: 'Shop support: call 0800 123 456.',
      dateCreated: expect.stringMatching(ISO),
    });

    const own = await http.get(`/api/clients/${client.id}/numbers`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ numbers: [put.body] });
    // The API client itself may read its numbers (what to send from).
    const asClient = await clientHttp(server.url, client).get(
      `/api/clients/${client.id}/numbers`,
    );
    expect(asClient.status).toBe(200);
    expect(asClient.body).toEqual({ numbers: [put.body] });
    const staff = await admin.get(`/api/admin/clients/${client.id}/numbers`);
    expect(staff.status).toBe(200);
    expect(staff.body).toEqual({ numbers: [put.body] });
    const listed = await admin.get(`/api/admin/numbers?q=${number}`);
    expect(listed.body).toEqual({
      total: 1,
      count: 30,
      offset: 0,
      numbers: [put.body],
    });
  });

  it('takes a short code of 3 digits and a long number of 15; blank or absent help text is none', async () => {
    const { client } = await ownerWithClient();
    for (const [number, helpText] of [
      ['123', undefined],
      ['447700900123456', '   '],
      ['12345678', null],
    ] as const) {
      const put = await admin.put(`/api/admin/numbers/${number}`, {
        clientId: client.id,
        ...(helpText === undefined ? {} : { helpText }),
      });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ number, helpText: null });
    }
    const own = await admin.get(`/api/admin/clients/${client.id}/numbers`);
    // The owner's list is by number.
    expect(own.body.numbers.map((n: { number: string }) => n.number)).toEqual([
      '123',
      '12345678',
      '447700900123456',
    ]);
  });

  it('refuses a number that is not 3 to 15 digits, with a message (400)', async () => {
    const { client } = await ownerWithClient();
    for (const bad of [
      '12',
      '1234567890123456',
      '+447700900123',
      '44a77',
      '%20',
    ]) {
      const put = await admin.put(`/api/admin/numbers/${bad}`, {
        clientId: client.id,
      });
      expect({ bad, status: put.status }).toEqual({ bad, status: 400 });
      expect(put.body.message).toContain('Number must be 3 to 15 digits');
    }
    expect(
      (await admin.delete('/api/admin/numbers/12')).body.message,
    ).toContain('Number must be 3 to 15 digits');
  });

  it('refuses a body without a valid client id (400) and an unknown client (404), writing nothing', async () => {
    const number = uniqueNumber();
    const missing = await admin.put(`/api/admin/numbers/${number}`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('clientId');
    const malformed = await admin.put(`/api/admin/numbers/${number}`, {
      clientId: 'shop',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('clientId must be a UUID');
    const unknown = await admin.put(`/api/admin/numbers/${number}`, {
      clientId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Client not found');
    expect((await admin.get(`/api/admin/numbers?q=${number}`)).body.total).toBe(
      0,
    );
    expect(await numberEvents(number)).toEqual([]);
  });

  it('refuses help text that is too long for an SMS, holds NUL, or is not text (400)', async () => {
    const { client } = await ownerWithClient();
    const number = uniqueNumber();
    for (const [helpText, message] of [
      ['x'.repeat(10 * 153 + 1), 'Help text is too long'],
      ['Call us\u0000now', 'NUL'],
      ['\ud800', 'valid Unicode'],
      [42, 'expected string'],
    ] as const) {
      const put = await admin.put(`/api/admin/numbers/${number}`, {
        clientId: client.id,
        helpText,
      });
      expect(put.status).toBe(400);
      expect(put.body.message).toContain(message);
    }
    const longest = await admin.put(`/api/admin/numbers/${number}`, {
      clientId: client.id,
      helpText: 'x'.repeat(10 * 153),
    });
    expect(longest.status).toBe(200);
  });

  it('moves a number held by another client: the old holder no longer lists it, and its date restarts', async () => {
    const first = await ownerWithClient('First');
    const second = await ownerWithClient('Second');
    const number = uniqueNumber();
    const assigned = await admin.put(`/api/admin/numbers/${number}`, {
      clientId: first.client.id,
      helpText: 'First help',
    });
    // The same holder, a new help text: the date stays.
    const edited = await admin.put(`/api/admin/numbers/${number}`, {
      clientId: first.client.id,
      helpText: 'First help, edited',
    });
    expect(edited.body.dateCreated).toBe(assigned.body.dateCreated);

    const moved = await admin.put(`/api/admin/numbers/${number}`, {
      clientId: second.client.id,
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      number,
      clientId: second.client.id,
      helpText: null,
    });
    expect(Date.parse(moved.body.dateCreated)).toBeGreaterThan(
      Date.parse(assigned.body.dateCreated),
    );
    expect(
      (await first.http.get(`/api/clients/${first.client.id}/numbers`)).body,
    ).toEqual({ numbers: [] });
    expect(
      (await second.http.get(`/api/clients/${second.client.id}/numbers`)).body,
    ).toEqual({ numbers: [moved.body] });
  });

  it('keeps one holder when two staff assign the same new number at once', async () => {
    const clients = await Promise.all([
      ownerWithClient('A'),
      ownerWithClient('B'),
      ownerWithClient('C'),
    ]);
    const number = uniqueNumber();
    const answers = await Promise.all(
      clients.map(({ client }) =>
        admin.put(`/api/admin/numbers/${number}`, { clientId: client.id }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const listed = await admin.get(`/api/admin/numbers?q=${number}`);
    expect(listed.body.total).toBe(1);
    const holder = listed.body.numbers[0].clientId;
    // The audit tells the story in order: one creation, then each move from the one before.
    const events = (await numberEvents(number)).reverse();
    expect(events[0]).toMatchObject({
      before: null,
      after: { clientId: expect.any(String), helpText: null },
    });
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.before).toEqual({
        clientId: events[i - 1]!.after!.clientId,
      });
    }
    expect(events.at(-1)!.after!.clientId).toBe(holder);
  });

  it('goes when its client is deleted', async () => {
    const { client, http } = await ownerWithClient();
    const number = uniqueNumber();
    await admin.put(`/api/admin/numbers/${number}`, { clientId: client.id });
    expect((await http.delete(`/api/clients/${client.id}`)).status).toBe(204);
    expect((await admin.get(`/api/admin/numbers?q=${number}`)).body.total).toBe(
      0,
    );
  });
});

describe('DELETE /api/admin/numbers/{number}', () => {
  it('releases a number (204), then answers 404', async () => {
    const { client, http } = await ownerWithClient();
    const number = uniqueNumber();
    await admin.put(`/api/admin/numbers/${number}`, { clientId: client.id });
    const released = await admin.delete(`/api/admin/numbers/${number}`);
    expect(released.status).toBe(204);
    expect(released.body).toBeUndefined();
    expect(
      (await http.get(`/api/clients/${client.id}/numbers`)).body.numbers,
    ).toEqual([]);
    const again = await admin.delete(`/api/admin/numbers/${number}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Number not found');
  });
});

describe('GET /api/admin/numbers', () => {
  it('lists newest first, searches numbers by start and help text by part, filters by client, pages', async () => {
    const { client } = await ownerWithClient();
    const other = await ownerWithClient();
    // Numbers of their own range, so the search sees only this test's.
    const base = `99${String(randomInt(10 ** 6)).padStart(6, '0')}`;
    const mine = [`${base}01`, `${base}02`, `${base}03`];
    for (const number of mine) {
      const put = await admin.put(`/api/admin/numbers/${number}`, {
        clientId: client.id,
        helpText: number.endsWith('02') ? 'Reply 100% FREE' : null,
      });
      expect(put.status).toBe(200);
    }
    await admin.put(`/api/admin/numbers/${base}99`, {
      clientId: other.client.id,
    });

    const all = await admin.get(`/api/admin/numbers?q=${base}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    expect(all.body.numbers.map((n: { number: string }) => n.number)).toEqual([
      `${base}99`,
      `${base}03`,
      `${base}02`,
      `${base}01`,
    ]);

    const byClient = await admin.get(
      `/api/admin/numbers?q=${base}&clientId=${client.id}&count=2&offset=1`,
    );
    expect(byClient.body).toMatchObject({ total: 3, count: 2, offset: 1 });
    expect(
      byClient.body.numbers.map((n: { number: string }) => n.number),
    ).toEqual([`${base}02`, `${base}01`]);

    // Help text by a part, case-insensitive, with % taken literally.
    const help = await admin.get(
      `/api/admin/numbers?q=${encodeURIComponent('100% free')}`,
    );
    expect(help.body.numbers.map((n: { number: string }) => n.number)).toEqual([
      `${base}02`,
    ]);
    const percent = await admin.get(`/api/admin/numbers?q=%25`);
    expect(
      percent.body.numbers.map((n: { number: string }) => n.number),
    ).toEqual([`${base}02`]);
    // A number's middle is not its start.
    expect(
      (await admin.get(`/api/admin/numbers?q=${base.slice(2)}`)).body.total,
    ).toBe(0);

    const past = await admin.get(`/api/admin/numbers?q=${base}&offset=10`);
    expect(past.body).toEqual({ total: 4, count: 30, offset: 10, numbers: [] });
  });

  it('refuses bad paging and a malformed client id (400)', async () => {
    for (const query of [
      'count=0',
      'offset=-1',
      'clientId=shop',
      `q=${'x'.repeat(101)}`,
    ]) {
      const answer = await admin.get(`/api/admin/numbers?${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.body.message).toBeTruthy();
    }
  });
});

describe('who may keep and read numbers', () => {
  it('needs ROLE_NUMBER_ADMIN to list, assign and release (403 otherwise)', async () => {
    const { client } = await ownerWithClient();
    const staff = await registerUser(server.url);
    await setRoles(server.url, staff.id, ['ROLE_CLIENT_ADMIN']);
    const number = uniqueNumber();
    for (const answer of [
      await staff.http.get('/api/admin/numbers'),
      await staff.http.put(`/api/admin/numbers/${number}`, {
        clientId: client.id,
      }),
      await staff.http.delete(`/api/admin/numbers/${number}`),
    ]) {
      expect(answer.status).toBe(403);
    }
    await setRoles(server.url, staff.id, ['ROLE_NUMBER_ADMIN']);
    const keeper = staff.http;
    expect((await keeper.get('/api/admin/numbers')).status).toBe(200);
    expect(
      (
        await keeper.put(`/api/admin/numbers/${number}`, {
          clientId: client.id,
        })
      ).status,
    ).toBe(200);
    // Reading a client's numbers is a client read: ROLE_NUMBER_ADMIN alone does not open it.
    expect(
      (await keeper.get(`/api/admin/clients/${client.id}/numbers`)).status,
    ).toBe(403);
    expect((await keeper.delete(`/api/admin/numbers/${number}`)).status).toBe(
      204,
    );
  });

  it("reads a client's numbers with ROLE_CLIENT_VIEW; an owner reads only their own clients' (404)", async () => {
    const { client } = await ownerWithClient();
    const number = uniqueNumber();
    await admin.put(`/api/admin/numbers/${number}`, { clientId: client.id });
    const viewer = await registerUser(server.url);
    await setRoles(server.url, viewer.id, ['ROLE_CLIENT_VIEW']);
    const read = await viewer.http.get(
      `/api/admin/clients/${client.id}/numbers`,
    );
    expect(read.status).toBe(200);
    expect(read.body.numbers).toHaveLength(1);
    // The viewer is also a customer: the client is not theirs.
    const asOwner = await viewer.http.get(`/api/clients/${client.id}/numbers`);
    expect(asOwner.status).toBe(404);
    expect(
      (
        await admin.get(
          '/api/admin/clients/00000000-0000-4000-8000-000000000000/numbers',
        )
      ).status,
    ).toBe(404);
  });
});

describe('audit', () => {
  it('records number.assigned with what changed, none for no change, and number.released', async () => {
    const first = await ownerWithClient();
    const second = await ownerWithClient();
    const number = uniqueNumber();
    await admin.put(`/api/admin/numbers/${number}`, {
      clientId: first.client.id,
      helpText: 'Help',
    });
    await admin.put(`/api/admin/numbers/${number}`, {
      clientId: first.client.id,
      helpText: 'Help',
    });
    await admin.put(`/api/admin/numbers/${number}`, {
      clientId: second.client.id,
      helpText: 'Help',
    });
    await admin.put(`/api/admin/numbers/${number}`, {
      clientId: second.client.id,
    });
    await admin.delete(`/api/admin/numbers/${number}`);
    const common = {
      actorEmail: ADMIN.email,
      targetType: 'number',
      targetId: number,
      ip: '127.0.0.1',
    };
    expect(await numberEvents(number)).toEqual([
      expect.objectContaining({
        ...common,
        action: 'number.released',
        before: { clientId: second.client.id, helpText: null },
        after: null,
      }),
      expect.objectContaining({
        ...common,
        action: 'number.assigned',
        before: { helpText: 'Help' },
        after: { helpText: null },
      }),
      expect.objectContaining({
        ...common,
        action: 'number.assigned',
        before: { clientId: first.client.id },
        after: { clientId: second.client.id },
      }),
      expect.objectContaining({
        ...common,
        action: 'number.assigned',
        before: null,
        after: { clientId: first.client.id, helpText: 'Help' },
      }),
    ]);
  });
});
