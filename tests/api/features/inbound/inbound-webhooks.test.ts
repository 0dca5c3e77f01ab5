// @also-on-pglite: the one inbound writer is plpgsql over arrays (record_inbound, join_inbound_parts), text cleaning and a unique partial index: PGlite runs them too.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminHttp,
  createClient,
  registerUser,
  type TestClient,
} from '../../../support/seed.ts';
import { startServer, type TestServer } from '../../../support/start-server.ts';
import {
  sendVonageInbound,
  vonageInboundFields,
  type InboundPlan,
} from '../../../support/vonage-server.ts';

/**
 * Inbound SMS through the HTTP providers' webhooks into the one inbound writer (CONTRACT
 * "Two-way messaging": Inbound from each method): Vonage's inbound fields by GET, form and
 * JSON, signed and badly signed; the generic gateway's JSON with its bearer token; routing to
 * the number's holder, duplicates stored once, parts joined out of order, the bad inputs (a
 * NUL, a lone surrogate, a 10 KB text, a part beyond its total) refused alone, a number nobody
 * holds acknowledged, counted and not stored. Read back from the table (the read API is
 * another helper's).
 */
const SIGNATURE = {
  secret: 'vonage-signature-secret',
  method: 'sha256',
} as const;
const TOKEN = 'gateway-token';

let server: TestServer;
let unsigned: TestServer;
let owner: TestClient;

beforeAll(async () => {
  [server, unsigned] = await Promise.all([
    startServer({
      VONAGE_API_KEY: 'key-1',
      VONAGE_API_SECRET: 'secret-1',
      VONAGE_SIGNATURE_SECRET: SIGNATURE.secret,
      VONAGE_SIGNATURE_METHOD: SIGNATURE.method,
      WORLD_SPECIAL_TOKEN: TOKEN,
    }),
    startServer({ VONAGE_API_KEY: 'key-1', VONAGE_API_SECRET: 'secret-1' }),
  ]);
  const user = await registerUser(server.url);
  owner = await createClient(user.http);
});
afterAll(async () => {
  await server?.close();
  await unsigned?.close();
});

/** A fresh number held by `client` on `on`'s database (the numbers API is another helper's). */
async function holdNumber(
  client: { id: string },
  on = server,
): Promise<string> {
  const number = `44700${randomInt(1e6, 1e7)}`;
  await on.app.db.query(
    'INSERT INTO numbers (number, client_id) VALUES ($1, $2)',
    [number, client.id],
  );
  return number;
}

const randomSender = () => `4477009${randomInt(1e5, 1e6)}`;

interface Stored {
  id: string;
  client_id: string;
  method: string;
  provider_message_id: string | null;
  from_number: string;
  to_number: string;
  body: string;
  encoding: string;
  segments: number;
  complete: boolean;
  keyword: string | null;
}

async function inboundTo(number: string, on = server): Promise<Stored[]> {
  return on.app.db.query<Stored>(
    `SELECT id, client_id, method, provider_message_id, from_number, to_number, body,
       encoding, segments, complete, keyword
     FROM inbound_messages WHERE to_number = $1 ORDER BY date_received, id`,
    [number],
  );
}

async function waitingParts(number: string, on = server) {
  return on.app.db.query<{ part_number: number; message_id: string | null }>(
    'SELECT part_number, message_id FROM inbound_parts WHERE to_number = $1 ORDER BY part_number',
    [number],
  );
}

/** The value of one line of /metrics (0 when absent). */
async function metric(line: string, on = server): Promise<number> {
  const text = await (await fetch(`${on.url}/metrics`)).text();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

const vonageUrl = (on = server) => `${on.url}/api/webhooks/vonage/inbound`;
const gatewayUrl = (on = server) =>
  `${on.url}/api/webhooks/world-special/inbound`;
const signed = (plan: Omit<InboundPlan, 'signature'>) =>
  vonageInboundFields({ ...plan, signature: SIGNATURE });

async function gatewayPost(body: unknown, token = TOKEN, on = server) {
  const response = await fetch(gatewayUrl(on), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('Vonage inbound webhook', () => {
  it('stores a signed message by GET, form and JSON for the number holder, keyword decided', async () => {
    const number = await holdNumber(owner);
    const from = randomSender();
    const before = await metric('sms_inbound_total{method="VONAGE_SMS"}');
    const get = signed({ from, to: number, text: 'Hello there' });
    const form = signed({ from: `+${from}`, to: number, text: ' stop ' });
    const json = signed({
      from,
      to: number,
      text: 'Grüße, ça va? 😀',
      type: 'unicode',
    });
    expect(await sendVonageInbound(vonageUrl(), get, 'GET')).toEqual({
      status: 200,
      body: { status: 'taken' },
    });
    expect((await sendVonageInbound(vonageUrl(), form, 'POST')).status).toBe(
      200,
    );
    expect(
      (await sendVonageInbound(vonageUrl(), json, 'POST-JSON')).status,
    ).toBe(200);

    const stored = await inboundTo(number);
    expect(stored).toEqual([
      expect.objectContaining({
        client_id: owner.id,
        method: 'VONAGE_SMS',
        provider_message_id: get.messageId,
        from_number: from,
        to_number: number,
        body: 'Hello there',
        encoding: 'GSM-7',
        segments: 1,
        complete: true,
        keyword: null,
      }),
      // A leading + of the sender is dropped; " stop " is the STOP group.
      expect.objectContaining({
        from_number: from,
        body: ' stop ',
        keyword: 'STOP',
      }),
      expect.objectContaining({ body: 'Grüße, ça va? 😀', encoding: 'UCS-2' }),
    ]);
    await expect
      .poll(() => metric('sms_inbound_total{method="VONAGE_SMS"}'))
      .toBe(before + 3);
  });

  it('stores a message delivered twice once (the same messageId)', async () => {
    const number = await holdNumber(owner);
    const fields = signed({
      from: randomSender(),
      to: number,
      text: 'Once only',
    });
    const again = signed({
      from: fields.msisdn!,
      to: number,
      text: 'Once only',
      messageId: fields.messageId!,
    });
    const answers = await Promise.all([
      sendVonageInbound(vonageUrl(), fields, 'GET'),
      sendVonageInbound(vonageUrl(), again, 'POST'),
      sendVonageInbound(vonageUrl(), fields, 'POST-JSON'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await inboundTo(number)).toHaveLength(1);
  });

  it('joins the parts of a long message, out of order, into one; a part sent again stays one', async () => {
    const number = await holdNumber(owner);
    const from = randomSender();
    const texts = ['The first part, ', 'the second part, ', 'and the last.'];
    const parts = texts.map((text, i) =>
      signed({
        from,
        to: number,
        text,
        concat: { ref: 77, total: 3, part: i + 1 },
      }),
    );
    expect(
      (await sendVonageInbound(vonageUrl(), parts[2]!, 'POST')).status,
    ).toBe(200);
    expect(
      (await sendVonageInbound(vonageUrl(), parts[0]!, 'GET')).status,
    ).toBe(200);
    // The same part again while it waits: still one.
    expect(
      (await sendVonageInbound(vonageUrl(), parts[0]!, 'GET')).status,
    ).toBe(200);
    expect(await inboundTo(number)).toEqual([]);
    expect((await waitingParts(number)).map((p) => p.part_number)).toEqual([
      1, 3,
    ]);

    expect(
      (await sendVonageInbound(vonageUrl(), parts[1]!, 'POST-JSON')).status,
    ).toBe(200);
    const [message, ...more] = await inboundTo(number);
    expect(more).toEqual([]);
    expect(message).toMatchObject({
      body: texts.join(''),
      segments: 3,
      complete: true,
      provider_message_id: parts[0]!.messageId,
      from_number: from,
      client_id: owner.id,
    });
    // Kept, marked, to know a part delivered again after the join (Vonage retries).
    expect(await waitingParts(number)).toEqual(
      [1, 2, 3].map((n) => ({ part_number: n, message_id: message!.id })),
    );
    for (const part of parts) {
      expect((await sendVonageInbound(vonageUrl(), part, 'POST')).status).toBe(
        200,
      );
    }
    expect(await inboundTo(number)).toHaveLength(1);
  });

  it('joins parts arriving at the same moment exactly once', async () => {
    const number = await holdNumber(owner);
    const from = randomSender();
    const total = 6;
    const parts = Array.from({ length: total }, (_, i) =>
      signed({
        from,
        to: number,
        text: `<${i + 1}>`,
        concat: { ref: 200, total, part: i + 1 },
      }),
    );
    const answers = await Promise.all(
      parts
        .reverse()
        .map((fields) => sendVonageInbound(vonageUrl(), fields, 'POST')),
    );
    expect(answers.map((a) => a.status)).toEqual(new Array(total).fill(200));
    const stored = await inboundTo(number);
    expect(stored.map((m) => [m.body, m.segments, m.complete])).toEqual([
      ['<1><2><3><4><5><6>', total, true],
    ]);
  });

  it('acknowledges a message to a number nobody holds, counts it and stores nothing', async () => {
    const nobody = `44700${randomInt(1e6, 1e7)}`;
    const before = await metric('sms_inbound_unrouted_total');
    const whole = signed({ from: randomSender(), to: nobody, text: 'Anyone?' });
    expect(await sendVonageInbound(vonageUrl(), whole, 'GET')).toEqual({
      status: 200,
      body: { status: 'taken' },
    });
    // A long one counts once, by its first part; none of its parts is kept.
    const from = randomSender();
    for (const part of [2, 1]) {
      const fields = signed({
        from,
        to: nobody,
        text: `p${part}`,
        concat: { ref: 5, total: 2, part },
      });
      expect(
        (await sendVonageInbound(vonageUrl(), fields, 'POST')).status,
      ).toBe(200);
    }
    expect(await inboundTo(nobody)).toEqual([]);
    expect(await waitingParts(nobody)).toEqual([]);
    await expect
      .poll(() => metric('sms_inbound_unrouted_total'))
      .toBe(before + 2);
  });

  it('refuses a missing or bad signature and a stale timestamp (401), storing nothing', async () => {
    const number = await holdNumber(owner);
    const plan = { from: randomSender(), to: number, text: 'Signed?' };
    const none = vonageInboundFields(plan);
    const wrong = vonageInboundFields({
      ...plan,
      signature: { ...SIGNATURE, secret: 'not-it' },
    });
    const tampered = { ...signed(plan), text: 'STOP' };
    const stale = vonageInboundFields({
      ...plan,
      signature: {
        ...SIGNATURE,
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      },
    });
    for (const fields of [none, wrong, tampered, stale]) {
      const answer = await sendVonageInbound(vonageUrl(), fields, 'POST');
      expect(answer.status).toBe(401);
      expect(answer.body.message).toMatch(/signature/i);
    }
    expect(await inboundTo(number)).toEqual([]);
  });

  it('takes unsigned messages when no signature secret is set', async () => {
    const client = await createClient((await registerUser(unsigned.url)).http);
    const number = await holdNumber(client, unsigned);
    const fields = vonageInboundFields({
      from: randomSender(),
      to: number,
      text: 'HELP',
    });
    expect(
      (await sendVonageInbound(vonageUrl(unsigned), fields, 'GET')).status,
    ).toBe(200);
    expect(await inboundTo(number, unsigned)).toEqual([
      expect.objectContaining({
        body: 'HELP',
        keyword: 'HELP',
        client_id: client.id,
      }),
    ]);
  });

  it('answers 400 with the reason for bad fields, and stores nothing of them', async () => {
    const number = await holdNumber(owner);
    const from = randomSender();
    const cases: [Omit<InboundPlan, 'signature'>, RegExp][] = [
      [
        { from, to: number, text: 'x'.repeat(10_000) },
        /text is longer than 1600/,
      ],
      [
        {
          from,
          to: number,
          text: 'beyond',
          concat: { ref: 1, total: 2, part: 3 },
        },
        /part number/,
      ],
      [
        {
          from,
          to: number,
          text: 'zero',
          concat: { ref: 1, total: 2, part: 0 },
        },
        /part number/,
      ],
      [
        {
          from,
          to: number,
          text: 'many',
          concat: { ref: 1, total: 300, part: 1 },
        },
        /total/,
      ],
      [{ from, to: 'not-a-number', text: 'where?' }, /to must be a number/],
      [{ from: '', to: number, text: 'who?' }, /msisdn is missing/],
      [{ from, to: number, text: 'id', messageId: 'has space' }, /messageId/],
    ];
    for (const [plan, reason] of cases) {
      const answer = await sendVonageInbound(vonageUrl(), signed(plan), 'POST');
      expect(answer.status, JSON.stringify(plan).slice(0, 80)).toBe(400);
      expect(answer.body.message).toMatch(reason);
    }
    const badType = signed({ from, to: number, text: 'x', type: 'binary' });
    // A binary message has no text for us: taken (Vonage stops), not stored.
    expect(await sendVonageInbound(vonageUrl(), badType, 'GET')).toEqual({
      status: 200,
      body: { status: 'ignored' },
    });
    expect(await inboundTo(number)).toEqual([]);
    expect(await waitingParts(number)).toEqual([]);
  });

  it('stores a text with a NUL or a lone surrogate cleaned, beside the others of its batch', async () => {
    const number = await holdNumber(owner);
    const from = randomSender();
    const texts = ['before', 'nul\u0000here', 'lone \ud800 surrogate', 'after'];
    // JSON carries both as they are (\u0000, \ud800); sent together, they share a write.
    const answers = await Promise.all(
      texts.map((text) =>
        sendVonageInbound(
          vonageUrl(),
          signed({ from, to: number, text, type: 'unicode' }),
          'POST-JSON',
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect((await inboundTo(number)).map((m) => m.body).sort()).toEqual(
      ['after', 'before', 'lone \ufffd surrogate', 'nulhere'].sort(),
    );
  });
});

describe('generic gateway inbound webhook', () => {
  it('stores {id, from, to, text} with the bearer token, once; the coding from the text', async () => {
    const number = await holdNumber(owner);
    const from = randomSender();
    const id = `gw-${randomInt(1e9)}`;
    const before = await metric('sms_inbound_total{method="WORLD_SPECIAL"}');
    expect(
      await gatewayPost({
        id,
        from: `+${from}`,
        to: `+${number}`,
        text: 'Quit',
      }),
    ).toEqual({
      status: 200,
      body: { status: 'taken' },
    });
    expect(
      (await gatewayPost({ id, from, to: number, text: 'Quit' })).status,
    ).toBe(200);
    expect(
      (await gatewayPost({ id: `${id}-2`, from, to: number, text: 'Привет' }))
        .status,
    ).toBe(200);
    expect(await inboundTo(number)).toEqual([
      expect.objectContaining({
        method: 'WORLD_SPECIAL',
        provider_message_id: id,
        from_number: from,
        to_number: number,
        body: 'Quit',
        encoding: 'GSM-7',
        keyword: 'STOP',
        client_id: owner.id,
      }),
      expect.objectContaining({
        body: 'Привет',
        encoding: 'UCS-2',
        keyword: null,
      }),
    ]);
    await expect
      .poll(() => metric('sms_inbound_total{method="WORLD_SPECIAL"}'))
      .toBe(before + 2);
  });

  it('refuses a wrong token (401) and bad bodies (400 with the reason)', async () => {
    const number = await holdNumber(owner);
    const good = {
      id: `gw-${randomInt(1e9)}`,
      from: randomSender(),
      to: number,
      text: 'hi',
    };
    const wrong = await gatewayPost(good, 'not-the-token');
    expect(wrong.status).toBe(401);
    for (const [body, reason] of [
      [{ ...good, text: undefined }, /text/],
      [{ ...good, id: '' }, /id is missing/],
      [{ ...good, text: 'y'.repeat(10_000) }, /longer than 1600/],
      [{ ...good, to: '12' }, /to must be a number/],
      [[good], /expected/],
    ] as const) {
      const answer = await gatewayPost(body);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(reason);
    }
    expect(await inboundTo(number)).toEqual([]);
  });
});

describe('the Operations screen', () => {
  it('counts the inbound messages of each method: the last hour and the last 24 hours', async () => {
    const admin = adminHttp(server.url);
    const inboundOf = async (method: string) => {
      const answer = await admin.get('/api/admin/operations');
      expect(answer.status).toBe(200);
      return answer.body.methods.find((m: any) => m.method === method).inbound;
    };
    const before = {
      vonage: await inboundOf('VONAGE_SMS'),
      gateway: await inboundOf('WORLD_SPECIAL'),
    };
    const number = await holdNumber(owner);
    const from = randomSender();
    for (const text of ['one', 'two']) {
      const fields = signed({ from, to: number, text });
      expect((await sendVonageInbound(vonageUrl(), fields, 'GET')).status).toBe(
        200,
      );
    }
    const id = `gw-${randomInt(1e9)}`;
    expect(
      (await gatewayPost({ id, from, to: number, text: 'three' })).status,
    ).toBe(200);
    // Nobody's number: not stored, not counted here (its counter is the metric's).
    const nobody = signed({
      from,
      to: `44700${randomInt(1e6, 1e7)}`,
      text: 'lost',
    });
    expect((await sendVonageInbound(vonageUrl(), nobody, 'GET')).status).toBe(
      200,
    );
    // One of them 3 hours ago: in the day, not in the hour.
    await server.app.db.query(
      `UPDATE inbound_messages SET date_received = now() - interval '3 hours'
       WHERE to_number = $1 AND body = 'two'`,
      [number],
    );
    expect(await inboundOf('VONAGE_SMS')).toEqual({
      lastHour: before.vonage.lastHour + 1,
      lastDay: before.vonage.lastDay + 2,
    });
    expect(await inboundOf('WORLD_SPECIAL')).toEqual({
      lastHour: before.gateway.lastHour + 1,
      lastDay: before.gateway.lastDay + 1,
    });
  });
});
