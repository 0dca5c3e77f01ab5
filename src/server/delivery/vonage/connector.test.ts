import { createHash, createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { countSms } from '../../../shared/sms.ts';
import {
  sendVonageReceipt,
  signVonageFields,
  startVonage,
  vonageReceiptFields,
  type TestVonage,
  type VonageServerOptions,
} from '../../../../tests/support/vonage-server.ts';
import type { Connector, OutgoingSms } from '../types.ts';
import { VONAGE_SIGNATURE_METHODS } from '../../../shared/limits.ts';
import {
  createVonageConnector,
  parseVonageReceipt,
  verifyVonageSignature,
  vonageFields,
  vonageTimestampProblem,
  type VonageConnectorOptions,
} from './connector.ts';

const API_SECRET = 'vonage-s3cret!';

let vonage: TestVonage | undefined;
let connector: Connector | undefined;
let logLines: string[] = [];

afterEach(async () => {
  await connector?.close();
  await vonage?.close();
  // Whatever happened, the API secret never reached the log.
  expect(logLines.join('\n')).not.toContain(API_SECRET);
  connector = vonage = undefined;
  logLines = [];
});

function logger() {
  return pino(
    { level: 'debug' },
    { write: (line: string) => void logLines.push(line) },
  );
}

async function setUp(
  serverOptions: VonageServerOptions = {},
  connectorOptions: Partial<VonageConnectorOptions> = {},
) {
  vonage = await startVonage({
    apiKey: 'acme-key',
    apiSecret: API_SECRET,
    ...serverOptions,
  });
  connector = createVonageConnector({
    baseUrl: `${vonage.baseUrl}/`,
    apiKey: 'acme-key',
    apiSecret: API_SECRET,
    callbackUrl: 'https://console.example/api/webhooks/vonage/dlr',
    timeoutMs: 1_000,
    concurrency: 10,
    maxAttempts: 3,
    retryBaseMs: 20,
    retryMaxMs: 200,
    logger: logger(),
    ...connectorOptions,
  });
  return { vonage, connector };
}

let counter = 0;
function sms(text: string, fields: Partial<OutgoingSms> = {}): OutgoingSms {
  return {
    messageId: `msg-${++counter}`,
    from: 'Skyline',
    to: '+447700900001',
    text,
    encoding: countSms(text).encoding,
    ...fields,
  };
}

describe('Vonage connector: the request', () => {
  it('posts GSM text with Vonage fields: digits without +, client-ref, callback', async () => {
    const { vonage, connector } = await setUp();
    const message = sms('Price: 5€ {ok}');
    const outcome = await connector.submit(message);
    expect(outcome).toEqual({
      kind: 'submitted',
      providerMessageIds: vonage.submits[0]!.messageIds,
    });
    expect(vonage.submits).toHaveLength(1);
    const [submit] = vonage.submits;
    expect(submit!.contentType).toBe('application/x-www-form-urlencoded');
    expect(submit!.fields).toEqual({
      api_key: 'acme-key',
      api_secret: API_SECRET,
      from: 'Skyline',
      to: '447700900001',
      text: 'Price: 5€ {ok}',
      type: 'text',
      callback: 'https://console.example/api/webhooks/vonage/dlr',
      'client-ref': message.messageId,
    });
  });

  it('sends numeric senders without + and UCS-2 as type=unicode, text intact', async () => {
    const { vonage, connector } = await setUp();
    const text = 'Привет, ça va? 😀';
    const outcome = await connector.submit(
      sms(text, { from: '+4915112345678' }),
    );
    expect(outcome.kind).toBe('submitted');
    expect(vonage.submits[0]!.fields).toMatchObject({
      from: '4915112345678',
      type: 'unicode',
      text,
    });
  });

  it('returns every part’s message-id, in order, for a multi-part answer', async () => {
    const { vonage, connector } = await setUp();
    const text = 'a'.repeat(400);
    expect(countSms(text).segments).toBe(3);
    const outcome = await connector.submit(sms(text));
    const ids = vonage.submits[0]!.messageIds;
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(outcome).toEqual({ kind: 'submitted', providerMessageIds: ids });
  });

  it('refuses a destination that is not a number without asking Vonage', async () => {
    const { vonage, connector } = await setUp();
    const outcome = await connector.submit(sms('hi', { to: 'bob' }));
    expect(outcome.kind).toBe('refused');
    expect(vonage.submits).toHaveLength(0);
  });
});

describe('Vonage connector: answers', () => {
  it('backs off with jitter on throttling (status 1), then succeeds', async () => {
    const { vonage, connector } = await setUp();
    vonage.script({ status: '1' }, { status: '1' });
    const outcome = await connector.submit(sms('hello'));
    expect(outcome).toEqual({
      kind: 'submitted',
      providerMessageIds: vonage.submits[2]!.messageIds,
    });
    expect(vonage.submits.map((s) => s.statuses)).toEqual([
      ['1'],
      ['1'],
      ['0'],
    ]);
    // Equal jitter: at least half of the exponential step (20 ms, then 40 ms).
    const [a, b, c] = vonage.submits.map((s) => s.receivedAt);
    expect(b! - a!).toBeGreaterThanOrEqual(9);
    expect(c! - b!).toBeGreaterThanOrEqual(19);
  });

  it('gives up on endless throttling after maxAttempts with retry', async () => {
    const { vonage, connector } = await setUp();
    vonage.script({ status: '1' }, { status: '1' }, { status: '1' }, {});
    const outcome = await connector.submit(sms('hello'));
    expect(outcome.kind).toBe('retry');
    expect(outcome.kind === 'retry' && outcome.error).toContain(
      'Vonage status 1 Throttled',
    );
    expect(vonage.submits).toHaveLength(3);
  });

  it.each([
    ['2', 'Missing Parameters'],
    ['3', 'Invalid Parameters'],
    ['6', 'Invalid Message'],
    ['7', 'Number Barred'],
    ['9', 'Partner Quota Violation'],
    ['15', 'Invalid Sender Address'],
    ['29', 'Non-Whitelisted Destination'],
    ['77', ''],
  ])(
    'refuses at once, without retrying, on permanent status %s',
    async (status, name) => {
      const { vonage, connector } = await setUp();
      vonage.script({ status });
      const outcome = await connector.submit(sms('hello'));
      expect(outcome.kind).toBe('refused');
      expect(outcome.kind === 'refused' && outcome.error).toContain(
        `Vonage status ${status}${name ? ` ${name}` : ''}`,
      );
      expect(vonage.submits).toHaveLength(1);
    },
  );

  it('refuses wrong credentials (Vonage status 4) without retrying', async () => {
    const { vonage, connector } = await setUp({ apiSecret: 'another' });
    const outcome = await connector.submit(sms('hello'));
    expect(outcome).toEqual({
      kind: 'refused',
      error: 'Vonage status 4 Invalid Credentials: Bad Credentials',
    });
    expect(vonage.submits).toHaveLength(1);
  });

  it('retries Vonage internal errors (status 5) and HTTP 5xx', async () => {
    const { vonage, connector } = await setUp();
    vonage.script({ status: '5' }, { httpStatus: 503 });
    const outcome = await connector.submit(sms('hello'));
    expect(outcome.kind).toBe('submitted');
    expect(vonage.submits).toHaveLength(3);
  });

  it('retries HTTP 429, refuses other HTTP 4xx at once', async () => {
    const { vonage, connector } = await setUp();
    vonage.script({ httpStatus: 429 }, {}, { httpStatus: 401 });
    expect((await connector.submit(sms('one'))).kind).toBe('submitted');
    expect(await connector.submit(sms('two'))).toEqual({
      kind: 'refused',
      error: 'Vonage HTTP 401',
    });
    expect(vonage.submits).toHaveLength(3);
  });

  it('refuses a message of which Vonage took only some parts (a retry would double them)', async () => {
    const { vonage, connector } = await setUp();
    vonage.script({ status: ['0', '1'] });
    const outcome = await connector.submit(sms('b'.repeat(200)));
    expect(outcome.kind).toBe('refused');
    expect(outcome.kind === 'refused' && outcome.error).toContain(
      'Vonage took 1 of 2 parts',
    );
    expect(vonage.submits).toHaveLength(1);
  });

  it('does not resend at once a 200 it cannot read', async () => {
    const { vonage, connector } = await setUp();
    vonage.script({ httpStatus: 200, body: '<html>oops</html>' });
    const outcome = await connector.submit(sms('hello'));
    expect(outcome.kind).toBe('retry');
    expect(vonage.submits).toHaveLength(1);
  });

  it('times out each request and gives up after the bounded retries', async () => {
    const { vonage, connector } = await setUp({}, { timeoutMs: 150 });
    vonage.script({ noAnswer: true }, { noAnswer: true }, { noAnswer: true });
    const started = performance.now();
    const outcome = await connector.submit(sms('hello'));
    const elapsed = performance.now() - started;
    expect(outcome).toEqual({
      kind: 'retry',
      error: 'no answer from Vonage within 0.15 s (3 attempts)',
    });
    expect(vonage.submits).toHaveLength(3);
    // 3 timeouts and two backoffs (≤ 20 ms, ≤ 40 ms): bounded, not endless.
    expect(elapsed).toBeGreaterThanOrEqual(440);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('retries an unreachable Vonage, then says retry', async () => {
    // A port that was free a moment ago: connection refused.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as { port: number };
    await new Promise((r) => probe.close(r));
    connector = createVonageConnector({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'k',
      apiSecret: API_SECRET,
      maxAttempts: 2,
      retryBaseMs: 10,
      logger: logger(),
    });
    const outcome = await connector.submit(sms('hello'));
    expect(outcome.kind).toBe('retry');
    expect(outcome.kind === 'retry' && outcome.error).toMatch(
      /Vonage unreachable: ECONNREFUSED.*\(2 attempts\)/,
    );
  });
});

describe('Vonage connector: limits and shutdown', () => {
  it('keeps at most `concurrency` requests in flight', async () => {
    const { vonage, connector } = await setUp(
      { delayMs: 60 },
      { concurrency: 2 },
    );
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => connector.submit(sms(`m${i}`))),
    );
    expect(outcomes.every((o) => o.kind === 'submitted')).toBe(true);
    expect(vonage.submits).toHaveLength(6);
    expect(vonage.maxActive).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(170);
  });

  it('close() settles pending submits as retry; later submits too', async () => {
    const { vonage, connector } = await setUp({}, { timeoutMs: 5_000 });
    vonage.script({ noAnswer: true });
    const pending = connector.submit(sms('hello'));
    // Pending: Vonage has the request and does not answer.
    await expect.poll(() => vonage.submits.length).toBe(1);
    const started = performance.now();
    await connector.close();
    expect(await pending).toEqual({
      kind: 'retry',
      error: 'Vonage connector closed',
    });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((await connector.submit(sms('later'))).kind).toBe('retry');
  });
});

describe('parseVonageReceipt', () => {
  async function submitted() {
    const { vonage, connector } = await setUp();
    await connector.submit(sms('a'.repeat(200)));
    return vonage.submits[0]!;
  }

  it('maps Vonage’s final statuses, with the err-code in the error', async () => {
    const submit = await submitted();
    const [first, second] = submit.messageIds;
    const parse = (status: string, errCode?: string, part = 0) =>
      parseVonageReceipt(
        vonageReceiptFields(submit, { status, errCode, part }),
      );
    expect(parse('delivered')).toEqual({
      providerMessageId: first,
      state: 'DELIVERED',
      error: null,
    });
    expect(parse('delivered', '0', 1)).toEqual({
      providerMessageId: second,
      state: 'DELIVERED',
      error: null,
    });
    expect(parse('failed', '6')).toEqual({
      providerMessageId: first,
      state: 'UNDELIVERED',
      error: 'failed err:6 (Anti-Spam Rejection)',
    });
    expect(parse('expired', '2')).toMatchObject({
      state: 'EXPIRED',
      error: 'expired err:2 (Absent Subscriber - Temporary)',
    });
    expect(parse('rejected', '14')).toMatchObject({ state: 'REJECTED' });
    expect(parse('unknown', '1')).toMatchObject({
      state: 'UNDELIVERED',
      error: 'unknown err:1 (Unknown)',
    });
    expect(parse('failed', '0')).toMatchObject({ error: 'failed' });
  });

  it('ignores non-final and unreadable receipts', async () => {
    const submit = await submitted();
    for (const status of ['accepted', 'buffered']) {
      expect(
        parseVonageReceipt(vonageReceiptFields(submit, { status })),
      ).toEqual({ ignore: `non-final receipt status ${status}` });
    }
    expect(
      parseVonageReceipt(vonageReceiptFields(submit, { status: 'teleported' })),
    ).toHaveProperty('ignore');
    expect(parseVonageReceipt({ status: 'delivered' })).toEqual({
      ignore: 'receipt without messageId',
    });
  });

  it('refuses ids the database cannot store, and cuts a hostile err-code', () => {
    for (const messageId of ['A\u0000B', 'A\ud800B', 'A B', 'x'.repeat(101)]) {
      expect(
        parseVonageReceipt({ messageId, status: 'delivered' }),
      ).toHaveProperty('ignore', expect.stringMatching(/^messageId /));
    }
    expect(
      parseVonageReceipt({
        messageId: '0C00000000000001',
        status: 'delivered',
        'client-ref': 'ref\u0000',
      }),
    ).toHaveProperty('ignore', expect.stringMatching(/^client-ref /));
    expect(
      parseVonageReceipt({ messageId: 'x'.repeat(100), status: 'delivered' }),
    ).toMatchObject({ state: 'DELIVERED' });
    const parsed = parseVonageReceipt({
      messageId: '0C00000000000001',
      status: 'rejected',
      'err-code': `6\u0000${'9'.repeat(100)}`,
    });
    expect(parsed).toMatchObject({ error: `rejected err:6${'9'.repeat(19)}` });
  });

  it('takes a signed timestamp up to 5 minutes old and 1 minute ahead', () => {
    const now = 1_800_000_000_000;
    const at = (offset: number) => ({ timestamp: String(now / 1000 + offset) });
    expect(vonageTimestampProblem(at(0), now)).toBeNull();
    expect(vonageTimestampProblem(at(-300), now)).toBeNull();
    expect(vonageTimestampProblem(at(60), now)).toBeNull();
    expect(vonageTimestampProblem(at(-301), now)).toMatch(/older than 300 s/);
    expect(vonageTimestampProblem(at(61), now)).toMatch(/in the future/);
    expect(vonageTimestampProblem({}, now)).toMatch(/without a valid/);
    expect(vonageTimestampProblem({ timestamp: '1e9' }, now)).toMatch(
      /without a valid/,
    );
  });

  it('reads the fields of a GET query, a POST form or a POST JSON body alike', () => {
    expect(
      vonageFields(
        { messageId: 'A1', status: 'delivered' },
        { 'err-code': 0, price: '0.03', nested: { x: 1 }, list: ['a'] },
        undefined,
      ),
    ).toEqual({
      messageId: 'A1',
      status: 'delivered',
      'err-code': '0',
      price: '0.03',
    });
  });

  it('gives the same answer to a duplicate and to a late receipt (pure)', async () => {
    const submit = await submitted();
    const fields = vonageReceiptFields(submit, {
      status: 'failed',
      errCode: '8',
    });
    const first = parseVonageReceipt(fields);
    expect(parseVonageReceipt({ ...fields })).toEqual(first);
    expect(
      parseVonageReceipt({
        ...fields,
        'message-timestamp': '2031-01-01 00:00:00',
      }),
    ).toEqual(first);
    // No memory of what came before: a delivered receipt in between changes nothing.
    parseVonageReceipt({ ...fields, status: 'delivered', 'err-code': '0' });
    expect(parseVonageReceipt(fields)).toEqual(first);
  });
});

describe('verifyVonageSignature', () => {
  const SECRET = 'sig-Secret-1234567890';

  it('follows the documented rule (sorted &key=value, & and = → _, md5 of it + secret)', () => {
    const fields = {
      timestamp: '1700000000',
      messageId: '0C000000217B7F02',
      'client-ref': 'a&b=c',
      status: 'delivered',
    };
    const signed =
      '&client-ref=a_b_c&messageId=0C000000217B7F02&status=delivered&timestamp=1700000000';
    const md5hash = createHash('md5')
      .update(signed + SECRET)
      .digest('hex');
    const sha256 = createHmac('sha256', SECRET).update(signed).digest('hex');
    expect(verifyVonageSignature({ ...fields, sig: md5hash }, SECRET)).toBe(
      true,
    );
    expect(
      verifyVonageSignature(
        { ...fields, sig: sha256.toUpperCase() },
        SECRET,
        'sha256',
      ),
    ).toBe(true);
    expect(
      verifyVonageSignature({ ...fields, sig: sha256 }, SECRET, 'md5hash'),
    ).toBe(false);
  });

  it.each(VONAGE_SIGNATURE_METHODS)(
    '%s: a real receipt verifies; tampered, wrong secret, wrong or missing sig do not',
    async (method) => {
      const { vonage, connector } = await setUp();
      await connector.submit(sms('hello', { messageId: 'ref&with=odd chars' }));
      const fields = vonageReceiptFields(vonage.submits[0]!, {
        status: 'delivered',
        signature: { secret: SECRET, method },
      });
      expect(verifyVonageSignature(fields, SECRET, method)).toBe(true);
      expect(
        verifyVonageSignature({ ...fields, status: 'failed' }, SECRET, method),
      ).toBe(false);
      expect(
        verifyVonageSignature({ ...fields, timestamp: '1' }, SECRET, method),
      ).toBe(false);
      expect(verifyVonageSignature(fields, `${SECRET}x`, method)).toBe(false);
      expect(
        verifyVonageSignature(
          { ...fields, sig: fields.sig!.slice(1) },
          SECRET,
          method,
        ),
      ).toBe(false);
      expect(
        verifyVonageSignature(
          { ...fields, sig: `${fields.sig}0` },
          SECRET,
          method,
        ),
      ).toBe(false);
      const { sig: _sig, ...unsigned } = fields;
      expect(verifyVonageSignature(unsigned, SECRET, method)).toBe(false);
      expect(
        verifyVonageSignature({ ...unsigned, sig: '' }, SECRET, method),
      ).toBe(false);
      // Another method's signature of the same fields is not accepted.
      const other = method === 'sha512' ? 'sha1' : 'sha512';
      expect(
        verifyVonageSignature(
          { ...unsigned, sig: signVonageFields(unsigned, SECRET, other) },
          SECRET,
          method,
        ),
      ).toBe(false);
    },
  );

  it('signs what a webhook receives: GET query string round trip keeps the signature', async () => {
    // What the route will see: Vonage's fields through a real URL query string.
    const { vonage, connector } = await setUp();
    await connector.submit(sms('hello'));
    const fields = vonageReceiptFields(vonage.submits[0]!, {
      status: 'delivered',
      signature: { secret: SECRET, method: 'md5hash' },
    });
    const { createServer: createHttpServer } = await import('node:http');
    const received: Record<string, string>[] = [];
    const receiver = createHttpServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      received.push(Object.fromEntries(url.searchParams));
      response.end('ok');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const { port } = receiver.address() as { port: number };
    try {
      const answer = await sendVonageReceipt(
        `http://127.0.0.1:${port}/api/webhooks/vonage/dlr`,
        fields,
      );
      expect(answer.status).toBe(200);
    } finally {
      receiver.close();
    }
    expect(received[0]).toEqual(fields);
    expect(verifyVonageSignature(received[0]!, SECRET, 'md5hash')).toBe(true);
  });
});
