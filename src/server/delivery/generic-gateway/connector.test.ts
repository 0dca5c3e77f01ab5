import http from 'node:http';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { countSms } from '../../../shared/sms.ts';
import {
  sendGatewayReceipt,
  startGenericGateway,
  type TestGateway,
} from '../../../../tests/support/generic-gateway-server.ts';
import type { Connector, OutgoingSms } from '../types.ts';
import {
  bearerMatches,
  createGenericGatewayConnector,
  parseGenericGatewayReceipt,
  type GenericGatewayConnectorOptions,
} from './connector.ts';

const TOKEN = 'ws-t0ken-abcdef';
const STATUS_URL = 'https://console.example/api/webhooks/world-special/dlr';

let gateway: TestGateway | undefined;
let connector: Connector | undefined;
let logLines: string[] = [];

afterEach(async () => {
  await connector?.close();
  await gateway?.close();
  expect(logLines.join('\n')).not.toContain(TOKEN);
  connector = gateway = undefined;
  logLines = [];
});

async function setUp(
  options: Partial<GenericGatewayConnectorOptions> = {},
  gatewayOptions: { delayMs?: number; token?: string } = {},
) {
  gateway = await startGenericGateway({ token: TOKEN, ...gatewayOptions });
  connector = createGenericGatewayConnector({
    url: gateway.url,
    token: TOKEN,
    statusUrl: STATUS_URL,
    timeoutMs: 1_000,
    concurrency: 10,
    maxAttempts: 3,
    retryBaseMs: 20,
    retryMaxMs: 200,
    logger: pino(
      { level: 'debug' },
      { write: (line: string) => void logLines.push(line) },
    ),
    ...options,
  });
  return { gateway, connector };
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

describe('WORLD_SPECIAL connector: submit', () => {
  it('posts the contract’s JSON with the bearer token; 2xx {id} is submitted', async () => {
    const { gateway, connector } = await setUp();
    const message = sms('Hello {world} €5');
    const outcome = await connector.submit(message);
    expect(outcome).toEqual({
      kind: 'submitted',
      providerMessageIds: ['ws-1'],
    });
    expect(gateway.requests).toHaveLength(1);
    const [request] = gateway.requests;
    expect(request!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request!.contentType).toBe('application/json');
    expect(request!.body).toEqual({
      messageId: message.messageId,
      from: 'Skyline',
      to: '+447700900001',
      text: 'Hello {world} €5',
      encoding: 'GSM-7',
      statusUrl: STATUS_URL,
    });
  });

  it('sends UCS-2 texts with encoding UCS-2 and the text intact; one id for a long text', async () => {
    const { gateway, connector } = await setUp();
    const text = `${'ж'.repeat(100)} 😀`;
    const outcome = await connector.submit(sms(text));
    expect(outcome).toEqual({
      kind: 'submitted',
      providerMessageIds: ['ws-1'],
    });
    expect(gateway.requests[0]!.body).toMatchObject({
      encoding: 'UCS-2',
      text,
    });
  });

  it('refuses on a wrong token (401) without retrying', async () => {
    const { gateway, connector } = await setUp({ token: 'not-the-token' });
    const outcome = await connector.submit(sms('hello'));
    expect(outcome).toEqual({
      kind: 'refused',
      error: 'WORLD_SPECIAL gateway HTTP 401: {"error":"invalid token"}',
    });
    expect(gateway.requests).toHaveLength(1);
  });

  it.each([400, 403, 404, 422])(
    'refuses a %i at once (4xx: no retry)',
    async (httpStatus) => {
      const { gateway, connector } = await setUp();
      gateway.script({ httpStatus, body: '{"error":"no"}' });
      const outcome = await connector.submit(sms('hello'));
      expect(outcome.kind).toBe('refused');
      expect(gateway.requests).toHaveLength(1);
    },
  );

  it('retries 5xx with backoff, then succeeds', async () => {
    const { gateway, connector } = await setUp();
    gateway.script({ httpStatus: 500 }, { httpStatus: 503 });
    const outcome = await connector.submit(sms('hello'));
    expect(outcome).toEqual({
      kind: 'submitted',
      providerMessageIds: ['ws-1'],
    });
    expect(gateway.requests.map((r) => r.httpStatus)).toEqual([500, 503, 202]);
    const [a, b, c] = gateway.requests.map((r) => r.receivedAt);
    expect(b! - a!).toBeGreaterThanOrEqual(9);
    expect(c! - b!).toBeGreaterThanOrEqual(19);
  });

  it('takes a 429 as "slow down": retried, not refused', async () => {
    const { gateway, connector } = await setUp();
    gateway.script({ httpStatus: 429 });
    expect((await connector.submit(sms('hello'))).kind).toBe('submitted');
    expect(gateway.requests).toHaveLength(2);
  });

  it('says retry after the bounded tries of 5xx', async () => {
    const { gateway, connector } = await setUp();
    gateway.script(
      { httpStatus: 502, body: 'bad gateway' },
      { httpStatus: 502, body: 'bad gateway' },
      { httpStatus: 502, body: 'bad gateway' },
    );
    const outcome = await connector.submit(sms('hello'));
    expect(outcome).toEqual({
      kind: 'retry',
      error: 'WORLD_SPECIAL gateway HTTP 502: bad gateway (3 attempts)',
    });
    expect(gateway.requests).toHaveLength(3);
  });

  it('times out each request, retries a bounded number of times, then says retry', async () => {
    const { gateway, connector } = await setUp({
      timeoutMs: 150,
      maxAttempts: 2,
    });
    gateway.script({ noAnswer: true }, { noAnswer: true });
    const started = performance.now();
    const outcome = await connector.submit(sms('hello'));
    expect(outcome).toEqual({
      kind: 'retry',
      error: 'no answer from WORLD_SPECIAL gateway within 0.15 s (2 attempts)',
    });
    expect(gateway.requests).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('does not resend at once a 2xx without an id', async () => {
    const { gateway, connector } = await setUp();
    gateway.script({ httpStatus: 200, body: '{"ok":true}' });
    const outcome = await connector.submit(sms('hello'));
    expect(outcome.kind).toBe('retry');
    expect(gateway.requests).toHaveLength(1);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const { gateway, connector } = await setUp(
      { concurrency: 3 },
      { delayMs: 60 },
    );
    const outcomes = await Promise.all(
      Array.from({ length: 9 }, (_, i) => connector.submit(sms(`m${i}`))),
    );
    expect(outcomes.every((o) => o.kind === 'submitted')).toBe(true);
    expect(gateway.requests).toHaveLength(9);
    expect(gateway.maxActive).toBe(3);
  });

  it("serves clients in turn: another client's message waits for no backlog (fair delivery)", async () => {
    const { gateway, connector } = await setUp(
      { concurrency: 2 },
      { delayMs: 20 },
    );
    const backlog = Array.from({ length: 20 }, (_, i) =>
      connector.submit(sms(`backlog ${i}`, { lane: 'client-a' })),
    );
    await expect.poll(() => gateway.requests.length).toBeGreaterThan(0);
    const seen = gateway.requests.length;
    const newcomer = connector.submit(sms('newcomer', { lane: 'client-b' }));
    expect((await newcomer).kind).toBe('submitted');
    await Promise.all(backlog);
    const texts = gateway.requests.map((r) => r.body?.text);
    expect(texts).toHaveLength(21);
    // First in, first out it would have been the 21st request; in turn, it goes after what the
    // gateway had seen, the two in flight (maybe not arrived yet when `seen` was read) and at
    // most one more of the backlog's turn.
    expect(texts.indexOf('newcomer')).toBeLessThanOrEqual(seen + 3);
    expect(seen).toBeLessThan(15);
  });

  it('close() settles a pending submit as retry', async () => {
    const { gateway, connector } = await setUp({ timeoutMs: 5_000 });
    gateway.script({ noAnswer: true });
    const pending = connector.submit(sms('hello'));
    // Pending: the gateway has the request and does not answer.
    await expect.poll(() => gateway.requests.length).toBe(1);
    await connector.close();
    expect(await pending).toEqual({
      kind: 'retry',
      error: 'WORLD_SPECIAL gateway connector closed',
    });
  });
});

describe('WORLD_SPECIAL receipts', () => {
  it('maps each contract status to our final states', () => {
    expect(
      parseGenericGatewayReceipt({ id: 'ws-1', status: 'delivered' }),
    ).toEqual({
      receipt: { providerMessageId: 'ws-1', state: 'DELIVERED', error: null },
    });
    expect(
      parseGenericGatewayReceipt({
        id: 'ws-2',
        status: 'undelivered',
        error: 'absent subscriber',
      }),
    ).toEqual({
      receipt: {
        providerMessageId: 'ws-2',
        state: 'UNDELIVERED',
        error: 'undelivered: absent subscriber',
      },
    });
    expect(
      parseGenericGatewayReceipt({ id: 'ws-3', status: 'expired' }),
    ).toEqual({
      receipt: {
        providerMessageId: 'ws-3',
        state: 'EXPIRED',
        error: 'expired',
      },
    });
    expect(
      parseGenericGatewayReceipt({
        id: 'ws-4',
        status: 'rejected',
        error: null,
      }),
    ).toEqual({
      receipt: {
        providerMessageId: 'ws-4',
        state: 'REJECTED',
        error: 'rejected',
      },
    });
  });

  it('gives a 400-worthy error for bodies outside the contract', () => {
    for (const body of [
      null,
      'delivered',
      {},
      { id: 'ws-1' },
      { id: '', status: 'delivered' },
      { id: 'ws-1', status: 'DELIVERED' },
      { id: 'ws-1', status: 'read' },
      { id: 'ws-1', status: 'delivered', error: 42 },
    ]) {
      const parsed = parseGenericGatewayReceipt(body);
      expect(parsed, JSON.stringify(body)).toHaveProperty('error');
      expect((parsed as { error: string }).error).toMatch(/^invalid receipt: /);
    }
  });

  it('is pure: a duplicate or late receipt parses the same', () => {
    const body = { id: 'ws-9', status: 'undelivered', error: 'x' };
    const first = parseGenericGatewayReceipt(body);
    parseGenericGatewayReceipt({ id: 'ws-9', status: 'delivered' });
    expect(parseGenericGatewayReceipt({ ...body })).toEqual(first);
  });

  it('a receipt the gateway sends carries the token bearerMatches checks', async () => {
    const seen: { authorization?: string; body: unknown }[] = [];
    const receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        seen.push({
          authorization: request.headers.authorization,
          body: JSON.parse(Buffer.concat(chunks).toString()),
        });
        response.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const { port } = receiver.address() as { port: number };
    try {
      await sendGatewayReceipt(
        `http://127.0.0.1:${port}/api/webhooks/world-special/dlr`,
        { id: 'ws-1', status: 'delivered' },
        TOKEN,
      );
    } finally {
      receiver.close();
    }
    expect(bearerMatches(seen[0]!.authorization, TOKEN)).toBe(true);
    expect(parseGenericGatewayReceipt(seen[0]!.body)).toEqual({
      receipt: { providerMessageId: 'ws-1', state: 'DELIVERED', error: null },
    });
  });
});

describe('bearerMatches', () => {
  it('accepts exactly "Bearer <token>" (scheme case-insensitive)', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN} extra`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches('Bearer ', TOKEN)).toBe(false);
    // An unset token matches nothing, not even an empty bearer.
    expect(bearerMatches('Bearer ', '')).toBe(false);
    expect(bearerMatches('Bearer x', '')).toBe(false);
  });
});
