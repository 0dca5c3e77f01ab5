/**
 * A scriptable stand-in for Vonage's SMS API, on node:http, for tests and benches: answers
 * `POST /sms/json` (form or JSON fields) in Vonage's format, one `messages` entry per part,
 * checks api_key/api_secret like Vonage does (HTTP 200, status "4" "Bad Credentials"), and
 * follows per-call plans: statuses per part, HTTP errors, delays and answers that never come.
 * It records every request's fields, counts them and the most it had in flight at once.
 *
 * It also builds Vonage delivery receipts for a recorded submit, signed the way Vonage signs
 * webhooks (written independently of src/server/delivery/vonage so each checks the other),
 * and can deliver them to a webhook URL by GET or POST.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { countSms } from '../../src/shared/sms.ts';

export interface VonageSubmitPlan {
  /** Status of every part ('0' accepted), or one per part. Default '0'. */
  status?: string | string[];
  /** Vonage's error-text for non-zero statuses (default: its usual wording). */
  errorText?: string;
  /** Answer with this HTTP status and `body` instead of the JSON answer. */
  httpStatus?: number;
  body?: string;
  /** Answer after this long (default: the server's delayMs). */
  delayMs?: number;
  /** Never answer: the connection stays open until the client gives up or close(). */
  noAnswer?: boolean;
}

export interface ReceivedVonageSubmit {
  receivedAt: number;
  contentType: string;
  fields: Record<string, string>;
  /** HTTP status answered (null: not answered). */
  httpStatus: number | null;
  /** The message-id of each accepted part (statuses '0'), in part order. */
  messageIds: string[];
  statuses: string[];
}

export interface VonageServerOptions {
  apiKey?: string;
  apiSecret?: string;
  delayMs?: number;
}

export interface TestVonage {
  /** The base URL to configure as VONAGE_BASE_URL. */
  readonly baseUrl: string;
  readonly submits: ReceivedVonageSubmit[];
  /** Requests being answered right now, and the most there ever were at once. */
  readonly active: number;
  readonly maxActive: number;
  /** Plans for the next submits, in order; afterwards the defaults apply. */
  script(...plans: VonageSubmitPlan[]): void;
  close(): Promise<void>;
}

const ERROR_TEXTS: Record<string, string> = {
  '1': 'Throttled',
  '2': 'Missing Parameters',
  '3': 'Invalid Parameters',
  '4': 'Bad Credentials',
  '5': 'Internal Error',
  '6': 'Invalid Message',
  '7': 'Number Barred',
  '9': 'Partner Quota Exceeded',
  '15': 'Illegal Sender Address - rejected',
};

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function fieldsOf(contentType: string, raw: string): Record<string, string> {
  if (contentType.includes('application/json')) {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(parsed).map(([k, v]) => [k, String(v)]),
    );
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

export async function startVonage(
  options: VonageServerOptions = {},
): Promise<TestVonage> {
  const settings = {
    apiKey: options.apiKey ?? 'vonage-key',
    apiSecret: options.apiSecret ?? 'vonage-secret',
    delayMs: options.delayMs ?? 0,
  };
  const plans: VonageSubmitPlan[] = [];
  const submits: ReceivedVonageSubmit[] = [];
  let active = 0;
  let maxActive = 0;
  let nextId = 0x0c000000;

  const server = http.createServer(async (request, response) => {
    active += 1;
    maxActive = Math.max(maxActive, active);
    response.on('close', () => {
      active -= 1;
    });
    let raw: string;
    try {
      raw = await readBody(request);
    } catch {
      return; // the client went away
    }
    if (request.method !== 'POST' || request.url !== '/sms/json') {
      response.writeHead(404).end();
      return;
    }
    const contentType = String(request.headers['content-type'] ?? '');
    let fields: Record<string, string>;
    try {
      fields = fieldsOf(contentType, raw);
    } catch {
      response.writeHead(400).end('unreadable body');
      return;
    }
    const plan = plans.shift() ?? {};
    const record: ReceivedVonageSubmit = {
      receivedAt: Date.now(),
      contentType,
      fields,
      httpStatus: null,
      messageIds: [],
      statuses: [],
    };
    submits.push(record);
    if (plan.noAnswer) return;

    const delay = plan.delayMs ?? settings.delayMs;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (response.destroyed) return;

    if (plan.httpStatus !== undefined) {
      record.httpStatus = plan.httpStatus;
      response.writeHead(plan.httpStatus, { 'content-type': 'text/plain' });
      response.end(plan.body ?? '');
      return;
    }
    const answer = (messages: Record<string, string>[]) => {
      record.httpStatus = 200;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ 'message-count': String(messages.length), messages }),
      );
    };
    if (
      fields.api_key !== settings.apiKey ||
      fields.api_secret !== settings.apiSecret
    ) {
      record.statuses = ['4'];
      answer([{ status: '4', 'error-text': 'Bad Credentials' }]);
      return;
    }
    if (!fields.from || !fields.to || !fields.text) {
      record.statuses = ['2'];
      answer([
        {
          status: '2',
          'error-text': 'Missing from param',
          to: fields.to ?? '',
        },
      ]);
      return;
    }
    const parts = countSms(fields.text).segments;
    const statuses = Array.from({ length: parts }, (_, i) =>
      Array.isArray(plan.status)
        ? (plan.status[i] ?? '0')
        : (plan.status ?? '0'),
    );
    record.statuses = statuses;
    answer(
      statuses.map((status): Record<string, string> => {
        if (status !== '0') {
          return {
            status,
            'error-text': plan.errorText ?? ERROR_TEXTS[status] ?? 'Error',
          };
        }
        const id = (nextId++).toString(16).toUpperCase().padStart(16, '0');
        record.messageIds.push(id);
        return {
          to: fields.to!,
          'message-id': id,
          status: '0',
          'remaining-balance': '15.53590000',
          'message-price': '0.03330000',
          network: '23410',
          ...(fields['client-ref']
            ? { 'client-ref': fields['client-ref'] }
            : {}),
        };
      }),
    );
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    submits,
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

// ---- delivery receipts ----

export type VonageSignatureMethod =
  'md5hash' | 'md5' | 'sha1' | 'sha256' | 'sha512';

/**
 * Vonage's webhook signature, computed step by step as its "Signing Messages" guide tells:
 * every parameter but sig, sorted by name, '&' and '=' in values turned into '_', each
 * appended as "&name=value"; md5hash appends the secret and hashes, the others HMAC the string.
 */
export function signVonageFields(
  fields: Record<string, string>,
  secret: string,
  method: VonageSignatureMethod,
): string {
  let input = '';
  for (const name of Object.keys(fields).sort()) {
    if (name === 'sig') continue;
    const value = fields[name]!.split('&').join('_').split('=').join('_');
    input += '&' + name + '=' + value;
  }
  if (method === 'md5hash') {
    return createHash('md5')
      .update(Buffer.from(input + secret, 'utf8'))
      .digest('hex');
  }
  // Vonage sends HMAC signatures in uppercase hex.
  return createHmac(method, Buffer.from(secret, 'utf8'))
    .update(Buffer.from(input, 'utf8'))
    .digest('hex')
    .toUpperCase();
}

export interface ReceiptPlan {
  /** delivered, expired, failed, rejected, accepted, buffered, unknown */
  status: string;
  errCode?: string;
  /** Which accepted part (default 0). */
  part?: number;
  /** Sign it: adds timestamp, nonce and sig. */
  signature?: {
    secret: string;
    method: VonageSignatureMethod;
    timestamp?: number;
  };
}

/** The fields of Vonage's delivery receipt for one part of a recorded submit. */
export function vonageReceiptFields(
  submit: ReceivedVonageSubmit,
  plan: ReceiptPlan,
): Record<string, string> {
  const messageId = submit.messageIds[plan.part ?? 0];
  if (!messageId) throw new Error('no accepted part to make a receipt for');
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const scts = `${String(now.getUTCFullYear()).slice(2)}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}`;
  const fields: Record<string, string> = {
    msisdn: submit.fields.to ?? '',
    to: submit.fields.from ?? '',
    'network-code': '23410',
    messageId,
    price: '0.03330000',
    status: plan.status,
    scts,
    'err-code': plan.errCode ?? (plan.status === 'delivered' ? '0' : '1'),
    'api-key': submit.fields.api_key ?? '',
    'message-timestamp': now.toISOString().replace('T', ' ').slice(0, 19),
  };
  if (submit.fields['client-ref'])
    fields['client-ref'] = submit.fields['client-ref'];
  if (plan.signature) {
    fields.timestamp = String(
      plan.signature.timestamp ?? Math.floor(Date.now() / 1000),
    );
    fields.nonce = `${Math.random().toString(36).slice(2)}-${Date.now()}`;
    fields.sig = signVonageFields(
      fields,
      plan.signature.secret,
      plan.signature.method,
    );
  }
  return fields;
}

/** Delivers receipt fields to a webhook as Vonage does: GET query string or POST form. */
export async function sendVonageReceipt(
  webhookUrl: string,
  fields: Record<string, string>,
  method: 'GET' | 'POST' = 'GET',
): Promise<{ status: number; text: string }> {
  const query = new URLSearchParams(fields).toString();
  const response =
    method === 'GET'
      ? await fetch(`${webhookUrl}?${query}`)
      : await fetch(webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: query,
        });
  return { status: response.status, text: await response.text() };
}

/** One inbound SMS (or part of one) as Vonage's inbound webhook carries it. */
export interface InboundPlan {
  /** The sender's number (Vonage's msisdn). */
  from: string;
  /** Our number (to). */
  to: string;
  text: string;
  messageId?: string;
  type?: 'text' | 'unicode' | 'binary';
  /** A part of a long message: concat=true with its reference, total and part number. */
  concat?: { ref: number; total: number; part: number };
  /** Sign it: adds timestamp, nonce and sig. */
  signature?: {
    secret: string;
    method: VonageSignatureMethod;
    timestamp?: number;
  };
}

/**
 * The fields of Vonage's inbound SMS webhook, as its documentation lists them
 * (https://developer.vonage.com/en/messaging/sms/guides/inbound-sms): msisdn, to, messageId,
 * text, type, keyword (the first word, upper-cased), message-timestamp (UTC "YYYY-MM-DD
 * HH:MM:SS"), api-key, and for a part concat, concat-ref, concat-total, concat-part; signed
 * ones also timestamp, nonce and sig.
 */
export function vonageInboundFields(
  plan: InboundPlan,
  apiKey = 'key-1',
): Record<string, string> {
  const fields: Record<string, string> = {
    msisdn: plan.from,
    to: plan.to,
    // Vonage's ids are 16 hex digits.
    messageId: plan.messageId ?? randomBytes(8).toString('hex').toUpperCase(),
    text: plan.text,
    type: plan.type ?? 'text',
    keyword: (plan.text.trim().split(/\s+/)[0] ?? '').toUpperCase(),
    'api-key': apiKey,
    'message-timestamp': new Date()
      .toISOString()
      .replace('T', ' ')
      .slice(0, 19),
  };
  if (plan.concat) {
    fields.concat = 'true';
    fields['concat-ref'] = String(plan.concat.ref);
    fields['concat-total'] = String(plan.concat.total);
    fields['concat-part'] = String(plan.concat.part);
  }
  if (plan.signature) {
    fields.timestamp = String(
      plan.signature.timestamp ?? Math.floor(Date.now() / 1000),
    );
    fields.nonce = `${Math.random().toString(36).slice(2)}-${Date.now()}`;
    fields.sig = signVonageFields(
      fields,
      plan.signature.secret,
      plan.signature.method,
    );
  }
  return fields;
}

/**
 * Delivers inbound fields to a webhook as Vonage does, by the HTTP method chosen in its
 * dashboard: GET (query string), POST form, or POST JSON (the same names, string values).
 */
export async function sendVonageInbound(
  webhookUrl: string,
  fields: Record<string, string>,
  method: 'GET' | 'POST' | 'POST-JSON' = 'GET',
): Promise<{ status: number; body: any }> {
  const query = new URLSearchParams(fields).toString();
  const response =
    method === 'GET'
      ? await fetch(`${webhookUrl}?${query}`)
      : await fetch(webhookUrl, {
          method: 'POST',
          headers: {
            'content-type':
              method === 'POST'
                ? 'application/x-www-form-urlencoded'
                : 'application/json',
          },
          body: method === 'POST' ? query : JSON.stringify(fields),
        });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, body };
}
