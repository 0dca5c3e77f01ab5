import { createHmac } from 'node:crypto';
import dgram from 'node:dgram';
import { lookup as systemLookup } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusCallbackEventSchema } from '../../../shared/schemas/messages.ts';
import { InboundCallbackEventSchema } from '../../../shared/schemas/inbound-callbacks.ts';
import { callbackBody, inboundCallbackBody } from './body.ts';
import { LOOKUPS_PER_CLIENT, LOOKUPS_WAITING_PER_CLIENT } from './dns.ts';
import { CALLBACK_RETRY_DELAYS_SECONDS } from '../../../shared/limits.ts';
import { callbackRetryDelaySeconds, postCallback } from './send.ts';
import { signCallback, verifyCallbackSignature } from './signature.ts';
import {
  checkCallbackTarget,
  forbiddenAddressReason,
  resolveCallbackTarget,
} from './target.ts';

const KEY = 'whsec_clé-🔑-1234';

describe('signCallback', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256(key UTF-8, "<t>.<raw body>")>', () => {
    const body = '{"messageId":"m1","state":"DELIVERED","text":"ça"}';
    const t = 1_763_900_000;
    // Independent computation, from the contract's words.
    const expected = createHmac('sha256', new TextEncoder().encode(KEY))
      .update(new TextEncoder().encode(`${t}.${body}`))
      .digest('hex');
    expect(signCallback(body, KEY, t)).toBe(`t=${t},v1=${expected}`);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies its own signature; refuses tampering, another key, stale or malformed headers', () => {
    const body = callbackBody({
      messageId: 'm1',
      clientId: 'c1',
      reference: null,
      state: 'SUBMITTED',
      deliveryMethod: 'VONAGE_SMS',
      error: null,
      dateUpdated: new Date('2026-11-23T14:00:00Z'),
      simulated: false,
    });
    const now = 1_763_900_000;
    const header = signCallback(body, KEY, now);
    const opts = { nowSeconds: now + 10 };
    expect(verifyCallbackSignature(header, body, KEY, opts)).toBe(true);
    expect(verifyCallbackSignature(header, `${body} `, KEY, opts)).toBe(false);
    expect(verifyCallbackSignature(header, body, `${KEY}x`, opts)).toBe(false);
    expect(
      verifyCallbackSignature(header, body, KEY, { nowSeconds: now + 301 }),
    ).toBe(false);
    expect(
      verifyCallbackSignature(
        header.replace(`t=${now}`, `t=${now + 1}`),
        body,
        KEY,
        opts,
      ),
    ).toBe(false);
    expect(verifyCallbackSignature(header.slice(0, -1), body, KEY, opts)).toBe(
      false,
    );
    expect(verifyCallbackSignature(undefined, body, KEY, opts)).toBe(false);
    expect(verifyCallbackSignature('v1=abc', body, KEY, opts)).toBe(false);
  });
});

describe('callbackBody', () => {
  it('is what the OpenAPI description’s webhooks.messageStatus says it is (StatusCallbackEvent)', () => {
    const event = JSON.parse(
      callbackBody({
        messageId: '8c1d7a52-3f1b-4f7e-9a39-6d1f0e2c4b11',
        clientId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        reference: null,
        state: 'REJECTED',
        deliveryMethod: 'MELROSE_SMPP',
        error: 'command_status 0x0000000b',
        dateUpdated: new Date(0),
        simulated: false,
      }),
    );
    expect(StatusCallbackEventSchema.strict().parse(event)).toEqual(event);
  });

  it('has the contract’s fields and the normalised error code, in order, dateUpdated in ISO 8601 UTC', () => {
    const body = callbackBody({
      messageId: '8c1d7a52-3f1b-4f7e-9a39-6d1f0e2c4b11',
      clientId: 'c-42',
      reference: 'order-7',
      state: 'UNDELIVERED',
      deliveryMethod: 'WORLD_SPECIAL',
      error: 'undelivered: absent subscriber',
      dateUpdated: '2026-11-23T15:04:05.123+01:00',
      simulated: false,
    });
    expect(body).toBe(
      '{"messageId":"8c1d7a52-3f1b-4f7e-9a39-6d1f0e2c4b11","clientId":"c-42","reference":"order-7",' +
        '"state":"UNDELIVERED","deliveryMethod":"WORLD_SPECIAL","error":"undelivered: absent subscriber",' +
        '"errorCode":"unreachable","providerErrorCode":"undelivered",' +
        '"dateUpdated":"2026-11-23T14:04:05.123Z","simulated":false}',
    );
    expect(
      JSON.parse(
        callbackBody({
          messageId: 'm',
          clientId: 'c',
          reference: null,
          state: 'ACCEPTED',
          deliveryMethod: null,
          error: null,
          dateUpdated: new Date(0),
          simulated: true,
        }),
      ),
    ).toEqual({
      messageId: 'm',
      clientId: 'c',
      reference: null,
      state: 'ACCEPTED',
      deliveryMethod: null,
      error: null,
      errorCode: null,
      providerErrorCode: null,
      dateUpdated: '1970-01-01T00:00:00.000Z',
      simulated: true,
    });
  });
});

describe('inboundCallbackBody', () => {
  const message = {
    messageId: '3f2a9c1e-7b4d-4e8f-a1c2-5d6e7f8a9b0c',
    clientId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    from: '447700900123',
    to: '447700900001',
    body: 'STOP',
    keyword: 'STOP' as const,
    dateReceived: '2026-11-23T15:04:05.123+01:00',
  };

  it('has type inbound first, then the contract’s fields in order, dateReceived in ISO 8601 UTC', () => {
    expect(inboundCallbackBody(message)).toBe(
      '{"type":"inbound","messageId":"3f2a9c1e-7b4d-4e8f-a1c2-5d6e7f8a9b0c",' +
        '"clientId":"7c9e6679-7425-40de-944b-e07fc1f90ae7","from":"447700900123",' +
        '"to":"447700900001","body":"STOP","keyword":"STOP",' +
        '"dateReceived":"2026-11-23T14:04:05.123Z"}',
    );
  });

  it('is what the OpenAPI description’s webhooks.inboundMessage says it is (InboundCallbackEvent)', () => {
    const event = JSON.parse(
      inboundCallbackBody({
        ...message,
        keyword: null,
        dateReceived: new Date(0),
      }),
    );
    expect(InboundCallbackEventSchema.strict().parse(event)).toEqual(event);
  });

  it('refuses a date that is not one rather than sending "Invalid Date"', () => {
    expect(() =>
      inboundCallbackBody({ ...message, dateReceived: 'yesterday' }),
    ).toThrow(/invalid dateReceived/);
  });
});

describe('checkCallbackTarget', () => {
  it.each([
    ['http://127.0.0.1/hook', 'a loopback address (127.0.0.1)'],
    ['http://127.8.9.10:8080/', 'a loopback address'],
    ['http://2130706433/', 'a loopback address (127.0.0.1)'],
    ['http://0x7f.0.0.1/', 'a loopback address (127.0.0.1)'],
    ['http://0.0.0.0/', 'an unspecified'],
    ['http://10.1.2.3/', 'a private address'],
    ['http://172.16.0.1/', 'a private address'],
    ['http://172.31.255.255/', 'a private address'],
    ['http://192.168.1.1/', 'a private address'],
    ['http://100.64.0.1/', 'a shared (carrier-grade NAT) address'],
    ['http://169.254.169.254/latest/meta-data', 'a link-local address'],
    ['http://224.0.0.1/', 'a multicast address'],
    ['http://255.255.255.255/', 'a reserved address'],
    ['http://198.18.0.1/', 'a reserved (benchmarking) address'],
    ['http://[::1]/', 'a loopback address (::1)'],
    ['http://[::]/', 'an unspecified address'],
    ['http://[fe80::1]/', 'a link-local address'],
    ['http://[fc00::1]/', 'a private (unique local) address'],
    ['http://[fd12:3456:789a::1]/', 'a private (unique local) address'],
    ['http://[ff02::1]/', 'a multicast address'],
    [
      'http://[::ffff:127.0.0.1]/',
      'a loopback address (IPv4 127.0.0.1 inside IPv6)',
    ],
    [
      'http://[::ffff:10.0.0.1]/',
      'a private address (IPv4 10.0.0.1 inside IPv6)',
    ],
    [
      'http://[::ffff:a9fe:a9fe]/',
      'a link-local address (IPv4 169.254.169.254',
    ],
    [
      'http://[::ffff:0:127.0.0.1]/',
      'a loopback address (IPv4 127.0.0.1 inside IPv6)',
    ],
    [
      'http://[::ffff:0:a9fe:a9fe]/',
      'a link-local address (IPv4 169.254.169.254',
    ],
    ['http://[::ffff:0:a00:1]/', 'a private address (IPv4 10.0.0.1'],
    ['http://[64:ff9b::7f00:1]/', 'a loopback address (IPv4 127.0.0.1'],
    ['http://[2002:c0a8:101::1]/', 'a private address (IPv4 192.168.1.1'],
  ])('refuses %s', (url, why) => {
    const checked = checkCallbackTarget(url);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.message).toContain(
      `statusCallbackUrl must not point to ${why}`,
    );
    // …unless private targets are allowed (tests).
    expect(checkCallbackTarget(url, { allowPrivate: true }).ok).toBe(true);
  });

  it.each([
    'https://hooks.example.com/sms?x=1',
    'http://8.8.8.8/',
    'http://172.32.0.1/',
    'http://100.128.0.1/',
    'https://[2606:4700:4700::1111]/',
    'https://[::ffff:8.8.8.8]/',
    'https://[::ffff:0:8.8.8.8]/',
    'https://localhost.example/',
  ])('lets %s through (names are checked when resolved)', (url) => {
    expect(checkCallbackTarget(url)).toMatchObject({ ok: true });
  });

  it.each([
    ['ftp://example.com/', 'statusCallbackUrl must be an http or https URL'],
    ['javascript:alert(1)', 'statusCallbackUrl must be an http or https URL'],
    ['file:///etc/passwd', 'statusCallbackUrl must be an http or https URL'],
    ['/relative', 'statusCallbackUrl must be an absolute http(s) URL'],
    ['not a url', 'statusCallbackUrl must be an absolute http(s) URL'],
  ])('refuses %s even when private targets are allowed', (url, message) => {
    expect(checkCallbackTarget(url, { allowPrivate: true })).toEqual({
      ok: false,
      message,
    });
  });

  it('names the field the URL came from: inboundCallbackUrl for inbound callbacks', () => {
    expect(
      checkCallbackTarget('http://10.0.0.1/', { field: 'inboundCallbackUrl' }),
    ).toEqual({
      ok: false,
      message:
        'inboundCallbackUrl must not point to a private address (10.0.0.1)',
    });
    expect(
      checkCallbackTarget('ftp://example.com/', {
        field: 'inboundCallbackUrl',
      }),
    ).toEqual({
      ok: false,
      message: 'inboundCallbackUrl must be an http or https URL',
    });
  });

  it('judges IPv6 spellings alike', () => {
    expect(forbiddenAddressReason('0:0:0:0:0:0:0:1')).toBe(
      'a loopback address',
    );
    expect(forbiddenAddressReason('::FFFF:7F00:0001')).toContain('loopback');
    expect(forbiddenAddressReason('fe80::1%eth0')).toBe('a link-local address');
    expect(forbiddenAddressReason('2a00:1450:4001:81b::200e')).toBeNull();
    expect(forbiddenAddressReason('93.184.216.34')).toBeNull();
  });
});

describe('resolveCallbackTarget', () => {
  it('refuses a name that resolves to 127.0.0.1 (localhost)', async () => {
    const resolved = await resolveCallbackTarget('http://localhost:9/hook');
    expect(resolved.ok).toBe(false);
    expect(!resolved.ok && resolved.message).toMatch(
      /^statusCallbackUrl host localhost resolves to a loopback address \((127\.0\.0\.1|::1)\)$/,
    );
    const allowed = await resolveCallbackTarget('http://localhost:9/hook', {
      allowPrivate: true,
    });
    expect(allowed).toMatchObject({ ok: true });
    expect(allowed.ok && ['127.0.0.1', '::1']).toContain(
      allowed.ok && allowed.address,
    );
  });

  it('refuses a name if ANY of its addresses is private, and one that does not resolve', async () => {
    const lookup = async (host: string) => {
      if (host === 'mixed.example') {
        return [
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ];
      }
      if (host === 'public.example') {
        return [
          { address: '2606:2800:220:1::1', family: 6 },
          { address: '93.184.216.34', family: 4 },
        ];
      }
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), {
        code: 'ENOTFOUND',
      });
    };
    expect(
      await resolveCallbackTarget('https://mixed.example/', { lookup }),
    ).toEqual({
      ok: false,
      message:
        'statusCallbackUrl host mixed.example resolves to a private address (10.0.0.7)',
    });
    expect(
      await resolveCallbackTarget('https://public.example/', { lookup }),
    ).toMatchObject({ ok: true, address: '2606:2800:220:1::1', family: 6 });
    expect(
      await resolveCallbackTarget('https://gone.example/', { lookup }),
    ).toEqual({
      ok: false,
      message:
        'statusCallbackUrl host gone.example does not resolve (ENOTFOUND)',
    });
  });

  it('returns a literal address as it is, without DNS', async () => {
    const lookup = async () => {
      throw new Error('no DNS for literals');
    };
    expect(
      await resolveCallbackTarget('http://[2606:4700::1111]:8443/x', {
        lookup,
      }),
    ).toMatchObject({ ok: true, address: '2606:4700::1111', family: 6 });
  });
});

/** A DNS server on 127.0.0.1 that takes every query and never answers. */
async function silentDnsServer() {
  const socket = dgram.createSocket('udp4');
  let queries = 0;
  socket.on('message', () => {
    queries += 1;
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  const { port } = socket.address();
  return {
    servers: [`127.0.0.1:${port}`],
    queries: () => queries,
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };
}

describe('resolveCallbackTarget against a DNS server that never answers', () => {
  it('fails with a clear error after the deadline, and keeps the thread pool free meanwhile', async () => {
    const dns = await silentDnsServer();
    try {
      const started = performance.now();
      const lookups = Array.from({ length: 8 }, (_, i) =>
        resolveCallbackTarget(`https://slow-${i}.test/hook`, {
          dns: { servers: dns.servers, timeoutMs: 1_000 },
        }),
      );
      // getaddrinfo would hold libuv's 4 threads: the system's own lookups and file reads
      // would wait for them. c-ares waits on a socket instead.
      const others = performance.now();
      await Promise.all([
        systemLookup('localhost'),
        readFile(new URL(import.meta.url)),
      ]);
      expect(performance.now() - others).toBeLessThan(500);
      const results = await Promise.all(lookups);
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(950);
      expect(elapsed).toBeLessThan(3_000);
      expect(results[0]).toEqual({
        ok: false,
        message:
          'statusCallbackUrl host slow-0.test does not resolve: no DNS answer within 1 s (ETIMEOUT)',
      });
      expect(results.every((r) => !r.ok)).toBe(true);
      expect(dns.queries()).toBeGreaterThan(0);
    } finally {
      await dns.close();
    }
  });

  it('runs at most LOOKUPS_PER_CLIENT lookups of one client at once, and refuses beyond the waiting list', async () => {
    const dns = await silentDnsServer();
    try {
      const options = {
        clientId: 'client-a',
        dns: { servers: dns.servers, timeoutMs: 600 },
      };
      const lookups = Array.from(
        { length: LOOKUPS_PER_CLIENT + LOOKUPS_WAITING_PER_CLIENT },
        (_, i) => resolveCallbackTarget(`https://q${i}.test/`, options),
      );
      const refused = await resolveCallbackTarget(
        'https://one-too-many.test/',
        options,
      );
      expect(refused).toMatchObject({
        ok: false,
        message: expect.stringMatching(
          /^statusCallbackUrl host one-too-many.test does not resolve: too many DNS lookups at once .*\(ELIMIT\)$/,
        ),
      });
      // Another client is not held up by client-a's turns.
      const other = resolveCallbackTarget('https://b.test/', {
        clientId: 'client-b',
        dns: options.dns,
      });
      await new Promise((r) => setTimeout(r, 300));
      // An A and an AAAA query per lookup: client-a's two running, client-b's one.
      expect(dns.queries()).toBeGreaterThanOrEqual(LOOKUPS_PER_CLIENT + 1);
      expect(dns.queries()).toBeLessThanOrEqual((LOOKUPS_PER_CLIENT + 1) * 2);
      expect(await other).toMatchObject({ ok: false });
      const results = await Promise.all(lookups);
      expect(results.every((r) => !r.ok && /ETIMEOUT/.test(r.message))).toBe(
        true,
      );
    } finally {
      await dns.close();
    }
  }, 15_000);

  it('answers localhost itself (c-ares does not read /etc/hosts) and needs no DNS for literals', async () => {
    const dns = await silentDnsServer();
    try {
      const options = {
        allowPrivate: true,
        dns: { servers: dns.servers, timeoutMs: 500 },
      };
      expect(
        await resolveCallbackTarget('http://localhost:8080/x', options),
      ).toMatchObject({ ok: true, address: '127.0.0.1', family: 4 });
      expect(
        await resolveCallbackTarget('http://api.localhost/x', options),
      ).toMatchObject({ ok: true, address: '127.0.0.1' });
      expect(
        await resolveCallbackTarget('http://127.0.0.1:9/x', options),
      ).toMatchObject({ ok: true, address: '127.0.0.1' });
      expect(dns.queries()).toBe(0);
    } finally {
      await dns.close();
    }
  });
});

// ---- sending ----

interface Received {
  method?: string;
  path?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  servers = [];
});

async function receiver(
  answer: (
    request: http.IncomingMessage,
    response: http.ServerResponse,
  ) => void,
) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({
        method: request.method,
        path: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(request, response);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { received, port, url: `http://127.0.0.1:${port}/hooks/sms` };
}

const BODY = callbackBody({
  messageId: 'm-1',
  clientId: 'c-1',
  reference: 'ref',
  state: 'DELIVERED',
  deliveryMethod: 'MELROSE_SMPP',
  error: null,
  dateUpdated: new Date(),
  simulated: false,
});

describe('postCallback', () => {
  it('POSTs the body with an X-Signature the receiver can verify independently', async () => {
    const target = await receiver((_req, res) => res.writeHead(204).end());
    const result = await postCallback(target.url, BODY, KEY, {
      allowPrivate: true,
    });
    expect(result).toMatchObject({ ok: true, status: 204 });
    expect(target.received).toHaveLength(1);
    const [got] = target.received;
    expect(got).toMatchObject({
      method: 'POST',
      path: '/hooks/sms',
      body: BODY,
    });
    expect(got!.headers['content-type']).toBe('application/json');
    const header = String(got!.headers['x-signature']);
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    expect(match).not.toBeNull();
    const t = Number(match![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(5);
    expect(match![2]).toBe(
      createHmac('sha256', Buffer.from(KEY, 'utf8'))
        .update(`${t}.${got!.body}`)
        .digest('hex'),
    );
    expect(verifyCallbackSignature(header, got!.body, KEY)).toBe(true);
  });

  it('reports a non-2xx answer with its status', async () => {
    const target = await receiver((_req, res) =>
      res.writeHead(500).end('boom'),
    );
    expect(
      await postCallback(target.url, BODY, KEY, { allowPrivate: true }),
    ).toMatchObject({
      ok: false,
      status: 500,
      error: 'receiver answered HTTP 500',
    });
  });

  it('does not follow a redirect', async () => {
    const elsewhere = await receiver((_req, res) => res.end('ok'));
    const target = await receiver((_req, res) =>
      res.writeHead(307, { location: elsewhere.url }).end(),
    );
    const result = await postCallback(target.url, BODY, KEY, {
      allowPrivate: true,
    });
    expect(result).toMatchObject({
      ok: false,
      status: 307,
      error: 'receiver answered HTTP 307 (redirects are not followed)',
    });
    expect(elsewhere.received).toHaveLength(0);
  });

  it('reports a timeout when no answer comes in time', async () => {
    const target = await receiver(() => {
      // never answers
    });
    const result = await postCallback(target.url, BODY, KEY, {
      allowPrivate: true,
      timeoutMs: 200,
    });
    expect(result).toMatchObject({
      ok: false,
      error: 'no answer within 0.2 s',
    });
    expect(result.status).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('reports a receiver that is not there', async () => {
    const target = await receiver((_req, res) => res.end());
    const url = target.url;
    const [server] = servers.splice(-1);
    await new Promise((r) => server!.close(r));
    const result = await postCallback(url, BODY, KEY, { allowPrivate: true });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^receiver unreachable: ECONNREFUSED/);
  });

  it('refuses private targets before any request, literal or resolved', async () => {
    const target = await receiver((_req, res) => res.end());
    const literal = await postCallback(target.url, BODY, KEY);
    expect(literal).toMatchObject({
      ok: false,
      refused: true,
      error:
        'statusCallbackUrl must not point to a loopback address (127.0.0.1)',
    });
    const named = await postCallback(
      `http://localhost:${target.port}/hooks/sms`,
      BODY,
      KEY,
    );
    expect(named).toMatchObject({ ok: false, refused: true });
    expect(named.error).toContain(
      'host localhost resolves to a loopback address',
    );
    expect(target.received).toHaveLength(0);
  });

  it('connects to the address it checked, keeping the name in Host (no second DNS lookup)', async () => {
    const target = await receiver((_req, res) => res.end());
    let lookups = 0;
    const lookup = async () => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    // hooks.invalid exists in no DNS: only the pinned address can reach the receiver.
    const result = await postCallback(
      `http://hooks.invalid:${target.port}/hooks/sms`,
      BODY,
      KEY,
      { allowPrivate: true, lookup },
    );
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(lookups).toBe(1);
    expect(target.received[0]!.headers.host).toBe(
      `hooks.invalid:${target.port}`,
    );
  });
});

describe('callbackRetryDelaySeconds', () => {
  it('retries first within 30 s, then backs off, for at least 24 hours, then stops', () => {
    expect(callbackRetryDelaySeconds(1)).toBeLessThanOrEqual(30);
    const delays: number[] = [];
    for (let attempt = 1; ; attempt += 1) {
      const delay = callbackRetryDelaySeconds(attempt);
      if (delay === null) break;
      delays.push(delay);
      expect(attempt).toBeLessThan(100);
    }
    expect(delays).toEqual(CALLBACK_RETRY_DELAYS_SECONDS);
    for (let i = 1; i < delays.length; i += 1) {
      expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    }
    const total = delays.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3600);
    expect(total).toBeLessThan(36 * 3600);
    expect(() => callbackRetryDelaySeconds(0)).toThrow();
  });
});
