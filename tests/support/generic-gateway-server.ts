/**
 * A scriptable generic HTTP gateway (the contract's WORLD_SPECIAL format) on node:http, for
 * tests and benches: takes `POST /` with `Authorization: Bearer <token>` and the JSON
 * {messageId, from, to, text, encoding, statusUrl}; answers 2xx {"id"}, 401 for a wrong token,
 * 400 for a body that misses fields, or what the next plan says (HTTP status, body, delay, no
 * answer at all). Records every request and the most it had in flight at once; sends receipts
 * to a statusUrl with the bearer token, as the gateway would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GatewayPlan {
  /** Answer with this status and body instead of 200 {"id"}. */
  httpStatus?: number;
  body?: string;
  delayMs?: number;
  /** Never answer: the connection stays open until the client gives up or close(). */
  noAnswer?: boolean;
}

export interface GatewayRequest {
  receivedAt: number;
  authorization: string | undefined;
  contentType: string;
  /** The parsed JSON body (null when it was not JSON). */
  body: Record<string, unknown> | null;
  httpStatus: number | null;
  /** The id answered for an accepted submit. */
  id: string | null;
}

export interface TestGateway {
  readonly url: string;
  readonly requests: GatewayRequest[];
  readonly active: number;
  readonly maxActive: number;
  script(...plans: GatewayPlan[]): void;
  close(): Promise<void>;
}

const FIELDS = ['messageId', 'from', 'to', 'text', 'encoding', 'statusUrl'];

export async function startGenericGateway(
  options: { token?: string; delayMs?: number } = {},
): Promise<TestGateway> {
  const token = options.token ?? 'gateway-token';
  const plans: GatewayPlan[] = [];
  const requests: GatewayRequest[] = [];
  let active = 0;
  let maxActive = 0;
  let nextId = 1;

  const server = http.createServer(async (request, response) => {
    active += 1;
    maxActive = Math.max(maxActive, active);
    response.on('close', () => {
      active -= 1;
    });
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of request) chunks.push(chunk as Buffer);
    } catch {
      return;
    }
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<
        string,
        unknown
      >;
    } catch {
      body = null;
    }
    const record: GatewayRequest = {
      receivedAt: Date.now(),
      authorization: request.headers.authorization,
      contentType: String(request.headers['content-type'] ?? ''),
      body,
      httpStatus: null,
      id: null,
    };
    requests.push(record);
    const plan = plans.shift() ?? {};
    if (plan.noAnswer) return;
    const delay = plan.delayMs ?? options.delayMs ?? 0;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (response.destroyed) return;

    const send = (status: number, payload: string) => {
      record.httpStatus = status;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(payload);
    };
    if (plan.httpStatus !== undefined) {
      send(plan.httpStatus, plan.body ?? '');
      return;
    }
    if (request.method !== 'POST') {
      send(405, JSON.stringify({ error: 'method not allowed' }));
      return;
    }
    if (request.headers.authorization !== `Bearer ${token}`) {
      send(401, JSON.stringify({ error: 'invalid token' }));
      return;
    }
    const missing = FIELDS.filter((f) => typeof body?.[f] !== 'string');
    if (
      missing.length > 0 ||
      !['GSM-7', 'UCS-2'].includes(String(body?.encoding))
    ) {
      send(
        400,
        JSON.stringify({ error: `invalid fields: ${missing.join(', ')}` }),
      );
      return;
    }
    record.id = `ws-${nextId++}`;
    send(202, JSON.stringify({ id: record.id }));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    get active() {
      return active;
    },
    get maxActive() {
      return maxActive;
    },
    script(...next) {
      plans.push(...next);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the gateway sends to statusUrl: POST JSON {id, status, error?} with the bearer token. */
export async function sendGatewayReceipt(
  statusUrl: string,
  receipt: { id: string; status: string; error?: string },
  token: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(statusUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(receipt),
  });
  return { status: response.status, text: await response.text() };
}
