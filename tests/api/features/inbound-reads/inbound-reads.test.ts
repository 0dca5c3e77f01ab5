// @also-on-pglite: the conversation list (two grouped sides, full join) and the thread (union of both directions) on PGlite's planner, and dates as its driver returns them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpClient } from '../../../support/http.ts';
import {
  adminHttp,
  clientHttp,
  createClient,
  giveCredit,
  registerUser,
  setRoles,
  type TestClient,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';

/**
 * The reads of two-way messaging: inbound messages and conversations. Inbound rows are written
 * straight into the table (the inbound writer is tested on its own); sent messages go through
 * the real send, scheduled a day ahead so their state stays SCHEDULED while the test reads.
 */

let server: TestServer;
let admin: HttpClient;
beforeAll(async () => {
  server = await startServer();
  admin = adminHttp(server.url);
});
afterAll(async () => server.close());

async function ownerWithClient() {
  const owner = await registerUser(server.url);
  const client = await createClient(owner.http);
  return { ...owner, client };
}

interface Received {
  from: string;
  to: string;
  body: string;
  at: string;
  method?: string;
  encoding?: string;
  segments?: number;
  complete?: boolean;
  keyword?: string | null;
}

/** Stores an inbound message of the client as the inbound writer would; answers its id. */
async function receive(clientId: string, message: Received): Promise<string> {
  const [row] = await server.app.db.query<{ id: string }>(
    `INSERT INTO inbound_messages (client_id, method, provider_message_id, from_number,
       to_number, body, encoding, segments, complete, keyword, date_received)
     VALUES ($1, $2, gen_random_uuid()::text, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [
      clientId,
      message.method ?? 'MELROSE_SMPP',
      message.from,
      message.to,
      message.body,
      message.encoding ?? 'GSM-7',
      message.segments ?? 1,
      message.complete ?? true,
      message.keyword ?? null,
      message.at,
    ],
  );
  return row!.id;
}

async function optOut(clientId: string, number: string): Promise<void> {
  await server.app.db.query(
    `INSERT INTO optouts (client_id, number, source) VALUES ($1, $2, 'api')`,
    [clientId, number],
  );
}

const DAY = 86_400_000;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

/** A send held SCHEDULED a day ahead: it stays in the conversation as it is. */
async function send(
  http: HttpClient,
  client: TestClient,
  recipient: string,
  body: string,
) {
  const sent = await http.post(`/api/clients/${client.id}/messages/sms`, {
    sender: 'Shop',
    recipient,
    body,
    sendAt: inMs(DAY),
  });
  expect(sent.status).toBe(201);
  return sent.body as { id: string; dateCreated: string };
}

describe('GET /api/clients/{clientId}/inbound', () => {
  it('lists inbound messages newest first with every field, and filters by sender, number and time', async () => {
    const { client, http } = await ownerWithClient();
    const first = await receive(client.id, {
      from: '447700900201',
      to: '447700900100',
      body: 'Hello',
      at: '2026-01-01T10:00:00.000Z',
    });
    const second = await receive(client.id, {
      from: '447700900202',
      to: '447700900101',
      body: 'Привет',
      at: '2026-01-02T10:00:00.000Z',
      method: 'VONAGE_SMS',
      encoding: 'UCS-2',
      segments: 2,
      complete: false,
    });
    const third = await receive(client.id, {
      from: '447700900201',
      to: '447700900101',
      body: 'help',
      at: '2026-01-03T10:00:00.000Z',
      keyword: 'HELP',
    });

    const list = await http.get(`/api/clients/${client.id}/inbound`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 3, count: 30, offset: 0 });
    expect(list.body.messages.map((m: { id: string }) => m.id)).toEqual([
      third,
      second,
      first,
    ]);
    expect(list.body.messages[1]).toEqual({
      id: second,
      clientId: client.id,
      from: '447700900202',
      to: '447700900101',
      body: 'Привет',
      encoding: 'UCS-2',
      segments: 2,
      method: 'VONAGE_SMS',
      complete: false,
      keyword: null,
      dateReceived: '2026-01-02T10:00:00.000Z',
    });
    expect(list.body.messages[0]).toMatchObject({
      keyword: 'HELP',
      complete: true,
    });

    const ids = async (query: string) => {
      const answer = await http.get(
        `/api/clients/${client.id}/inbound?${query}`,
      );
      expect(answer.status).toBe(200);
      return answer.body.messages.map((m: { id: string }) => m.id);
    };
    expect(await ids('from=447700900201')).toEqual([third, first]);
    // A leading + is dropped, as numbers are stored as digits.
    expect(await ids(`from=${encodeURIComponent('+447700900201')}`)).toEqual([
      third,
      first,
    ]);
    expect(await ids('to=447700900101')).toEqual([third, second]);
    expect(await ids('from=447700900201&to=447700900101')).toEqual([third]);
    // A date is its whole UTC day, on either side.
    expect(await ids('since=2026-01-02&until=2026-01-02')).toEqual([second]);
    expect(await ids('until=2026-01-02T10:00:00Z')).toEqual([second, first]);
    expect(await ids('since=2026-01-02T10:00:00.001Z')).toEqual([third]);

    const page = await http.get(
      `/api/clients/${client.id}/inbound?count=1&offset=1`,
    );
    expect(page.body).toMatchObject({ total: 3, count: 1, offset: 1 });
    expect(page.body.messages.map((m: { id: string }) => m.id)).toEqual([
      second,
    ]);
    const past = await http.get(`/api/clients/${client.id}/inbound?offset=9`);
    expect(past.body).toEqual({ total: 3, count: 30, offset: 9, messages: [] });
  });

  it('refuses bad filters and paging with a message (400)', async () => {
    const { client, http } = await ownerWithClient();
    for (const query of [
      'since=yesterday',
      'until=2026-13-01',
      'count=0',
      'offset=-1',
      `from=${'1'.repeat(33)}`,
      'to=%01',
    ]) {
      const answer = await http.get(
        `/api/clients/${client.id}/inbound?${query}`,
      );
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.body.message).toBeTruthy();
    }
  });
});

describe('GET /api/clients/{clientId}/inbound/{id}', () => {
  it("answers one of the client's inbound messages; another client's is not found", async () => {
    const mine = await ownerWithClient();
    const theirs = await ownerWithClient();
    const id = await receive(mine.client.id, {
      from: '447700900301',
      to: '447700900100',
      body: 'Is my order late?',
      at: '2026-02-01T08:00:00.000Z',
    });
    const read = await mine.http.get(
      `/api/clients/${mine.client.id}/inbound/${id}`,
    );
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, body: 'Is my order late?' });

    // The other owner's own client, asked for this message: not theirs.
    const other = await theirs.http.get(
      `/api/clients/${theirs.client.id}/inbound/${id}`,
    );
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Inbound message not found');
    const malformed = await mine.http.get(
      `/api/clients/${mine.client.id}/inbound/42`,
    );
    expect(malformed.status).toBe(400);
  });
});

describe('conversations', () => {
  it('lists one conversation per remote number, newest first, both directions counted, opted-out ones marked', async () => {
    const { client, http } = await ownerWithClient();
    await giveCredit(server.url, client.id, 10);
    // D wrote before anything was sent; A was sent to, then answered; B was only sent to.
    await receive(client.id, {
      from: '447700900004',
      to: '447700900100',
      body: 'Who is this?',
      at: new Date(Date.now() - 3_600_000).toISOString(),
    });
    const toA = await send(http, client, '447700900001', 'Your order shipped');
    const toB = await send(http, client, '+44 7700 900002', 'Your code: 1234');
    await receive(client.id, {
      from: '447700900001',
      to: '447700900100',
      body: 'Thanks!',
      at: inMs(3_600_000),
    });
    await optOut(client.id, '447700900002');

    const list = await http.get(`/api/clients/${client.id}/conversations`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 3, count: 30, offset: 0 });
    expect(list.body.conversations).toEqual([
      {
        number: '447700900001',
        lastMessageAt: expect.any(String),
        lastBody: 'Thanks!',
        lastDirection: 'inbound',
        inboundCount: 1,
        outboundCount: 1,
        optedOut: false,
      },
      {
        number: '447700900002',
        lastMessageAt: expect.any(String),
        lastBody: 'Your code: 1234',
        lastDirection: 'outbound',
        inboundCount: 0,
        outboundCount: 1,
        optedOut: true,
      },
      {
        number: '447700900004',
        lastMessageAt: expect.any(String),
        lastBody: 'Who is this?',
        lastDirection: 'inbound',
        inboundCount: 1,
        outboundCount: 0,
        optedOut: false,
      },
    ]);
    // The outbound side's time is the message's own (milliseconds of the same instant).
    expect(Date.parse(list.body.conversations[1].lastMessageAt)).toBe(
      Date.parse(toB.dateCreated),
    );
    expect(toA.id).toBeTruthy();

    // An older message from A counts, but its last message stays the latest one.
    await receive(client.id, {
      from: '447700900001',
      to: '447700900100',
      body: 'Earlier question',
      at: '2026-01-01T00:00:00.000Z',
    });
    const page = await http.get(
      `/api/clients/${client.id}/conversations?count=1&offset=0`,
    );
    expect(page.body).toMatchObject({ total: 3, count: 1, offset: 0 });
    expect(page.body.conversations).toEqual([
      expect.objectContaining({
        number: '447700900001',
        lastBody: 'Thanks!',
        inboundCount: 2,
        outboundCount: 1,
      }),
    ]);
    const second = await http.get(
      `/api/clients/${client.id}/conversations?count=1&offset=1`,
    );
    expect(second.body.conversations[0].number).toBe('447700900002');
    // The inbox: only the numbers that wrote, each still counting what was sent to it.
    const inbox = await http.get(
      `/api/clients/${client.id}/conversations?inbound=true`,
    );
    expect(inbox.body).toMatchObject({ total: 2, count: 30, offset: 0 });
    expect(inbox.body.conversations).toEqual([
      page.body.conversations[0],
      list.body.conversations[2],
    ]);
    expect(
      (
        await http.get(
          `/api/clients/${client.id}/conversations?inbound=true&offset=2`,
        )
      ).body,
    ).toEqual({ total: 2, count: 30, offset: 2, conversations: [] });
    expect(
      (
        await http.get(
          `/api/clients/${client.id}/conversations?inbound=false&count=1`,
        )
      ).body.total,
    ).toBe(3);
    const bad = await http.get(
      `/api/clients/${client.id}/conversations?inbound=yes`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('inbound must be true or false');

    const past = await http.get(
      `/api/clients/${client.id}/conversations?offset=3`,
    );
    expect(past.body).toEqual({
      total: 3,
      count: 30,
      offset: 3,
      conversations: [],
    });
  });

  it('says the last message went out when the latest is a send', async () => {
    const { client, http } = await ownerWithClient();
    await giveCredit(server.url, client.id, 10);
    await receive(client.id, {
      from: '447700900011',
      to: '447700900100',
      body: 'Any news?',
      at: new Date(Date.now() - 60_000).toISOString(),
    });
    await send(http, client, '447700900011', 'Yes: it ships today');
    const list = await http.get(`/api/clients/${client.id}/conversations`);
    expect(list.body.conversations).toEqual([
      expect.objectContaining({
        number: '447700900011',
        lastBody: 'Yes: it ships today',
        lastDirection: 'outbound',
        inboundCount: 1,
        outboundCount: 1,
      }),
    ]);
  });

  it('answers an empty list for a client that never sent or received', async () => {
    const { client, http } = await ownerWithClient();
    const list = await http.get(`/api/clients/${client.id}/conversations`);
    expect(list.body).toEqual({
      total: 0,
      count: 30,
      offset: 0,
      conversations: [],
    });
  });

  it('shows one conversation oldest first, both directions, outbound with its state, paged', async () => {
    const { client, http } = await ownerWithClient();
    await giveCredit(server.url, client.id, 10);
    const question = await receive(client.id, {
      from: '447700900021',
      to: '447700900100',
      body: 'When does it ship?',
      at: new Date(Date.now() - 60_000).toISOString(),
    });
    const reply = await send(http, client, '447700900021', 'Tomorrow');
    const thanks = await receive(client.id, {
      from: '447700900021',
      to: '447700900100',
      body: 'Thanks',
      at: inMs(60_000),
    });
    // Another number's messages stay out of this thread.
    await receive(client.id, {
      from: '447700900022',
      to: '447700900100',
      body: 'Not this one',
      at: inMs(0),
    });

    const thread = await http.get(
      `/api/clients/${client.id}/conversations/447700900021`,
    );
    expect(thread.status).toBe(200);
    expect(thread.body).toEqual({
      number: '447700900021',
      optedOut: false,
      total: 3,
      count: 30,
      offset: 0,
      items: [
        {
          direction: 'inbound',
          id: question,
          body: 'When does it ship?',
          state: 'RECEIVED',
          date: expect.any(String),
        },
        {
          direction: 'outbound',
          id: reply.id,
          body: 'Tomorrow',
          state: 'SCHEDULED',
          date: reply.dateCreated,
        },
        {
          direction: 'inbound',
          id: thanks,
          body: 'Thanks',
          state: 'RECEIVED',
          date: expect.any(String),
        },
      ],
    });

    // The latest page: offset = total - count; a leading + names the same number.
    const latest = await http.get(
      `/api/clients/${client.id}/conversations/${encodeURIComponent('+447700900021')}?count=2&offset=1`,
    );
    expect(latest.body).toMatchObject({
      number: '447700900021',
      total: 3,
      count: 2,
      offset: 1,
    });
    expect(latest.body.items.map((i: { id: string }) => i.id)).toEqual([
      reply.id,
      thanks,
    ]);

    await optOut(client.id, '447700900021');
    expect(
      (await http.get(`/api/clients/${client.id}/conversations/447700900021`))
        .body.optedOut,
    ).toBe(true);
  });

  it('answers an empty conversation for a number never written to, opted out or not', async () => {
    const { client, http } = await ownerWithClient();
    await optOut(client.id, '447700900031');
    for (const [number, optedOut] of [
      ['447700900031', true],
      ['447700900032', false],
    ] as const) {
      const thread = await http.get(
        `/api/clients/${client.id}/conversations/${number}`,
      );
      expect(thread.status).toBe(200);
      expect(thread.body).toEqual({
        number,
        optedOut,
        total: 0,
        count: 30,
        offset: 0,
        items: [],
      });
    }
    const bad = await http.get(
      `/api/clients/${client.id}/conversations/${'9'.repeat(33)}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Number is too long');
  });
});

describe('who reads inbound messages and conversations', () => {
  const paths = (clientId: string, inboundId: string) => [
    `/clients/${clientId}/inbound`,
    `/clients/${clientId}/inbound/${inboundId}`,
    `/clients/${clientId}/conversations`,
    `/clients/${clientId}/conversations/447700900041`,
  ];

  it("lets the owner and the client's own credentials read, and nobody else's (404)", async () => {
    const { client, http } = await ownerWithClient();
    const id = await receive(client.id, {
      from: '447700900041',
      to: '447700900100',
      body: 'Hi',
      at: '2026-03-01T00:00:00.000Z',
    });
    const stranger = await registerUser(server.url);
    const apiClient = clientHttp(server.url, client);
    for (const path of paths(client.id, id)) {
      expect({ path, status: (await http.get(`/api${path}`)).status }).toEqual({
        path,
        status: 200,
      });
      expect({
        path,
        status: (await apiClient.get(`/api${path}`)).status,
      }).toEqual({ path, status: 200 });
      const refused = await stranger.http.get(`/api${path}`);
      expect({ path, status: refused.status }).toEqual({ path, status: 404 });
      expect(refused.body.message).toBe('Client not found');
    }
  });

  it('lets staff with ROLE_CLIENT_VIEW read any client under /api/admin, and refuses others (403)', async () => {
    const { client } = await ownerWithClient();
    const id = await receive(client.id, {
      from: '447700900041',
      to: '447700900100',
      body: 'Hi',
      at: '2026-03-01T00:00:00.000Z',
    });
    const viewer = await registerUser(server.url);
    await setRoles(server.url, viewer.id, ['ROLE_CLIENT_VIEW']);
    const customer = await registerUser(server.url);
    for (const path of paths(client.id, id)) {
      const read = await viewer.http.get(`/api/admin${path}`);
      expect({ path, status: read.status }).toEqual({ path, status: 200 });
      const refused = await customer.http.get(`/api/admin${path}`);
      expect({ path, status: refused.status }).toEqual({ path, status: 403 });
    }
    const staffThread = await admin.get(
      `/api/admin/clients/${client.id}/conversations/447700900041`,
    );
    expect(staffThread.body.items).toEqual([
      expect.objectContaining({ id, direction: 'inbound', body: 'Hi' }),
    ]);
    const unknown = await admin.get(
      '/api/admin/clients/00000000-0000-4000-8000-000000000000/inbound',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Client not found');
  });
});
