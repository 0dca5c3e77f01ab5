/**
 * The VONAGE_SMS connector: Vonage's SMS API, `POST {VONAGE_BASE_URL}/sms/json` (form fields
 * api_key, api_secret, from, to, text, type, callback, client-ref), and the pure parts of its
 * delivery-receipt webhook (parsing and signature checking). Receipts do not reach this
 * connector: the route `/api/webhooks/vonage/dlr` parses them with parseVonageReceipt and hands
 * them to the ReceiptInbox (receipt-inbox.ts).
 *
 * Vonage splits long texts itself and answers one entry per part, in order:
 * `{"message-count": "2", "messages": [{"status": "0", "message-id": "…", …}, …]}`.
 * How each answer is taken (https://developer.vonage.com/en/api-errors/sms):
 *
 * | status | Vonage's meaning                      | here                                   |
 * |--------|---------------------------------------|----------------------------------------|
 * | 0      | Success                               | submitted (every part's message-id)    |
 * | 1      | Throttled                             | backoff + jitter, again; then 'retry'  |
 * | 5      | Internal Error                        | backoff + jitter, again; then 'retry'  |
 * | 10     | Too Many Existing Binds ("back off")  | backoff + jitter, again; then 'retry'  |
 * | 2      | Missing Parameters                    | refused                                |
 * | 3      | Invalid Parameters                    | refused                                |
 * | 4      | Invalid Credentials                   | refused                                |
 * | 6      | Invalid Message (unroutable prefix)   | refused                                |
 * | 7      | Number Barred                         | refused                                |
 * | 8      | Partner Account Barred                | refused                                |
 * | 9      | Partner Quota Violation (no credit)   | refused: another method may still send |
 * | 11     | Account Not Enabled For HTTP          | refused                                |
 * | 12     | Message Too Long                      | refused                                |
 * | 14     | Invalid Signature                     | refused                                |
 * | 15     | Invalid Sender Address                | refused                                |
 * | 22     | Invalid Network Code                  | refused                                |
 * | 23     | Invalid Callback URL                  | refused                                |
 * | 29     | Non-Whitelisted Destination           | refused                                |
 * | 32     | Signature And API Secret Disallowed   | refused                                |
 * | 33     | Number De-activated                   | refused                                |
 * | other  | (not in Vonage's table)               | refused, as SMPP treats vendor codes   |
 *
 * Some parts accepted and others not: refused. The accepted parts are gone already; a retry
 * here would send them twice, and a fail-over at least gets the whole text to the recipient.
 * HTTP level: 5xx, 429, a timeout or a network error are transient (backoff, again, then
 * 'retry'); another 4xx or a redirect is refused; a 2xx we cannot read is 'retry' at once (it
 * may have been taken: sending it again right away would double it).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  SubmitterConnector,
  type AttemptResult,
  type HttpAnswer,
  type RetryPolicy,
} from '../http/submitter.ts';
import { storableText } from '../../../shared/text.ts';
import { receiptIdProblem } from '../receipt-fields.ts';
import type {
  Connector,
  DeliveryLogger,
  FinalState,
  OutgoingSms,
  Receipt,
  SubmitOutcome,
} from '../types.ts';
import {
  VONAGE_SIGNATURE_METHODS,
  type VonageSignatureMethod,
} from '../../../shared/limits.ts';

export interface VonageConnectorOptions extends RetryPolicy {
  /** VONAGE_BASE_URL, e.g. https://rest.nexmo.com (a trailing slash is fine). */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Where Vonage sends delivery receipts: PUBLIC_URL/api/webhooks/vonage/dlr. */
  callbackUrl?: string | null;
  /** Per HTTP request (default 10 s). */
  timeoutMs?: number;
  /** Requests in flight to Vonage at once (default 10). */
  concurrency?: number;
  logger: DeliveryLogger;
}

type StatusKind = 'transient' | 'permanent';

/** Vonage's SMS API statuses (see the table above); absent ones are permanent. */
export const VONAGE_SUBMIT_STATUSES: ReadonlyMap<
  string,
  { name: string; kind: StatusKind }
> = new Map([
  ['1', { name: 'Throttled', kind: 'transient' }],
  ['2', { name: 'Missing Parameters', kind: 'permanent' }],
  ['3', { name: 'Invalid Parameters', kind: 'permanent' }],
  ['4', { name: 'Invalid Credentials', kind: 'permanent' }],
  ['5', { name: 'Internal Error', kind: 'transient' }],
  ['6', { name: 'Invalid Message', kind: 'permanent' }],
  ['7', { name: 'Number Barred', kind: 'permanent' }],
  ['8', { name: 'Partner Account Barred', kind: 'permanent' }],
  ['9', { name: 'Partner Quota Violation', kind: 'permanent' }],
  ['10', { name: 'Too Many Existing Binds', kind: 'transient' }],
  ['11', { name: 'Account Not Enabled For HTTP', kind: 'permanent' }],
  ['12', { name: 'Message Too Long', kind: 'permanent' }],
  ['14', { name: 'Invalid Signature', kind: 'permanent' }],
  ['15', { name: 'Invalid Sender Address', kind: 'permanent' }],
  ['22', { name: 'Invalid Network Code', kind: 'permanent' }],
  ['23', { name: 'Invalid Callback URL', kind: 'permanent' }],
  ['29', { name: 'Non-Whitelisted Destination', kind: 'permanent' }],
  ['32', { name: 'Signature And API Secret Disallowed', kind: 'permanent' }],
  ['33', { name: 'Number De-activated', kind: 'permanent' }],
]);

interface VonagePart {
  status?: unknown;
  'message-id'?: unknown;
  'error-text'?: unknown;
}

function describeStatus(part: VonagePart): string {
  const status = String(part.status);
  const name = VONAGE_SUBMIT_STATUSES.get(status)?.name;
  const text =
    typeof part['error-text'] === 'string' && part['error-text'] !== name
      ? part['error-text']
      : '';
  return `Vonage status ${status}${name ? ` ${name}` : ''}${text ? `: ${text}` : ''}`;
}

/** Takes one HTTP answer of POST /sms/json. Exported for tests. */
export function readVonageAnswer(answer: HttpAnswer): AttemptResult {
  if (answer.kind === 'failed') {
    return { kind: 'transient', error: answer.error };
  }
  const { status, text } = answer;
  if (status === 429) {
    return { kind: 'transient', error: 'Vonage HTTP 429', throttled: true };
  }
  if (status >= 500) {
    return { kind: 'transient', error: `Vonage HTTP ${status}` };
  }
  if (status < 200 || status >= 300) {
    return { kind: 'refused', error: `Vonage HTTP ${status}` };
  }
  let parts: VonagePart[] | null = null;
  try {
    const body = JSON.parse(text) as { messages?: unknown };
    if (Array.isArray(body.messages) && body.messages.length > 0) {
      parts = body.messages as VonagePart[];
    }
  } catch {
    // handled below
  }
  if (!parts || parts.some((p) => typeof p !== 'object' || p === null)) {
    return {
      kind: 'retry',
      error: `Vonage HTTP ${status} without a readable messages list`,
    };
  }
  const accepted = parts.filter(
    (p) =>
      String(p.status) === '0' &&
      typeof p['message-id'] === 'string' &&
      p['message-id'] !== '',
  );
  if (accepted.length === parts.length) {
    return {
      kind: 'submitted',
      providerMessageIds: parts.map((p) => p['message-id'] as string),
    };
  }
  const failed = parts.filter((p) => !accepted.includes(p));
  const errors = [...new Set(failed.map(describeStatus))].join('; ');
  if (accepted.length > 0) {
    return {
      kind: 'refused',
      error: `Vonage took ${accepted.length} of ${parts.length} parts: ${errors}`,
    };
  }
  const permanent = failed.some(
    (p) => VONAGE_SUBMIT_STATUSES.get(String(p.status))?.kind !== 'transient',
  );
  if (permanent) return { kind: 'refused', error: errors };
  return {
    kind: 'transient',
    error: errors,
    throttled: failed.some((p) => String(p.status) === '1'),
  };
}

/** Vonage wants numbers without '+' (E.164 digits); alphanumeric senders pass as they are. */
function vonageNumber(value: string): string | null {
  const match = /^\+?(\d{1,20})$/.exec(value.trim());
  return match ? match[1]! : null;
}

export function createVonageConnector(
  options: VonageConnectorOptions,
): Connector {
  return new VonageConnector(options);
}

class VonageConnector extends SubmitterConnector {
  readonly method = 'VONAGE_SMS' as const;
  readonly #url: string;
  readonly #options: VonageConnectorOptions;

  constructor(options: VonageConnectorOptions) {
    super('Vonage', options);
    this.#options = options;
    this.#url = `${options.baseUrl.replace(/\/+$/, '')}/sms/json`;
  }

  submit(sms: OutgoingSms): Promise<SubmitOutcome> {
    const closed = this.closedOutcome();
    if (closed) return closed;
    const to = vonageNumber(sms.to);
    if (!to) {
      return Promise.resolve({
        kind: 'refused',
        error: `invalid destination for Vonage: ${JSON.stringify(sms.to)}`,
      });
    }
    const fields: Record<string, string> = {
      api_key: this.#options.apiKey,
      api_secret: this.#options.apiSecret,
      from: vonageNumber(sms.from) ?? sms.from,
      to,
      text: sms.text,
      type: sms.encoding === 'UCS-2' ? 'unicode' : 'text',
      'client-ref': sms.messageId,
    };
    if (this.#options.callbackUrl) fields.callback = this.#options.callbackUrl;
    const body = new URLSearchParams(fields).toString();

    return this.submitter.submit(sms, async (signal) =>
      readVonageAnswer(
        await this.submitter.post(
          this.#url,
          {
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              accept: 'application/json',
            },
            body,
          },
          signal,
        ),
      ),
    );
  }
}

// ---- delivery receipts ----

/** Vonage's DLR err-code meanings, kept in the error text shown on the message. */
const RECEIPT_ERRORS: ReadonlyMap<string, string> = new Map([
  ['1', 'Unknown'],
  ['2', 'Absent Subscriber - Temporary'],
  ['3', 'Absent Subscriber - Permanent'],
  ['4', 'Call Barred by User'],
  ['5', 'Portability Error'],
  ['6', 'Anti-Spam Rejection'],
  ['7', 'Handset Busy'],
  ['8', 'Network Error'],
  ['9', 'Illegal Number'],
  ['10', 'Illegal Message'],
  ['11', 'Unroutable'],
  ['12', 'Destination Unreachable'],
  ['13', 'Subscriber Age Restriction'],
  ['14', 'Number Blocked by Carrier'],
  ['15', 'Prepaid Insufficient Funds'],
  ['16', 'Gateway Quota Exceeded'],
  ['50', 'Entity Filter'],
  ['51', 'Header Filter'],
  ['52', 'Content Filter'],
  ['53', 'Consent Filter'],
  ['54', 'Regulation Error'],
  ['99', 'General Error'],
]);

/** Vonage DLR `status` → our final state; accepted and buffered are not final. */
const RECEIPT_STATES: ReadonlyMap<string, FinalState | null> = new Map([
  ['delivered', 'DELIVERED'],
  ['expired', 'EXPIRED'],
  ['failed', 'UNDELIVERED'],
  ['rejected', 'REJECTED'],
  ['unknown', 'UNDELIVERED'],
  ['accepted', null],
  ['buffered', null],
]);

/**
 * The receipt's fields as one string map, for the webhook route: Vonage sends them as a GET
 * query string, a POST form or a POST JSON body (as configured in its dashboard); pass the
 * parsed query and body. Numbers and booleans become strings (the signature is over the text
 * as sent); nested values are dropped.
 */
export function vonageFields(...sources: unknown[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const source of sources) {
    if (typeof source !== 'object' || source === null) continue;
    for (const [name, value] of Object.entries(source)) {
      if (
        typeof value === 'string' ||
        typeof value === 'number' ||
        typeof value === 'boolean'
      ) {
        fields[name] = String(value);
      }
    }
  }
  return fields;
}

/**
 * A Vonage delivery receipt (query string of a GET or the form/JSON body of a POST) → our
 * receipt, or why it changes nothing. Pure: a duplicate or late receipt gives the same result
 * (keeping final states final is the queue's job).
 * https://developer.vonage.com/en/messaging/sms/guides/delivery-receipts
 */
export function parseVonageReceipt(
  fields: Record<string, string>,
): Receipt | { ignore: string } {
  const providerMessageId = (fields.messageId ?? '').trim();
  if (!providerMessageId) return { ignore: 'receipt without messageId' };
  // Checked here, before anything is stored: see receipt-fields.ts.
  const idProblem =
    receiptIdProblem('messageId', providerMessageId) ??
    (fields['client-ref']
      ? receiptIdProblem('client-ref', fields['client-ref'])
      : null);
  if (idProblem) return { ignore: idProblem };
  const status = (fields.status ?? '').trim().toLowerCase();
  if (!RECEIPT_STATES.has(status)) {
    return { ignore: `unrecognised receipt status ${JSON.stringify(status)}` };
  }
  const state = RECEIPT_STATES.get(status);
  if (!state) return { ignore: `non-final receipt status ${status}` };
  if (state === 'DELIVERED') return { providerMessageId, state, error: null };
  // Vonage's codes are a few digits; anything else is kept only as far as it can be stored.
  const code = storableText((fields['err-code'] ?? '').trim(), 20);
  const meaning = RECEIPT_ERRORS.get(code);
  const error =
    code && !/^0+$/.test(code)
      ? `${status} err:${code}${meaning ? ` (${meaning})` : ''}`
      : status;
  return { providerMessageId, state, error };
}

// ---- signed webhooks ----

/**
 * Vonage's signature over the fields (`sig` excluded), as documented in "Signing Messages"
 * (https://developer.vonage.com/en/getting-started/concepts/signing-messages) and done by
 * Vonage's SDKs (vonage-python-sdk `Auth.sign_params`): the parameters sorted by name, each
 * appended as `&name=value` with any '&' or '=' in the value replaced by '_'; `md5hash` is the
 * MD5 of that string followed by the signature secret, the others an HMAC of the string keyed
 * with the secret. Lowercase hex (Vonage may send it uppercase: compare case-insensitively).
 * The `timestamp` field (unix seconds) is one of the signed parameters.
 */
export function vonageSignature(
  fields: Record<string, string>,
  secret: string,
  method: VonageSignatureMethod,
): string {
  const names = Object.keys(fields)
    .filter((name) => name !== 'sig')
    .sort();
  const signed = names
    .map((name) => `&${name}=${fields[name]!.replace(/[&=]/g, '_')}`)
    .join('');
  if (method === 'md5hash') {
    return createHash('md5')
      .update(signed + secret, 'utf8')
      .digest('hex');
  }
  return createHmac(method, secret).update(signed, 'utf8').digest('hex');
}

/**
 * True when `fields.sig` is Vonage's signature of the other fields with this secret. A missing
 * sig, one of the wrong length or a method we do not know is false; the comparison is
 * constant-time.
 */
export function verifyVonageSignature(
  fields: Record<string, string>,
  secret: string,
  method: VonageSignatureMethod = 'md5hash',
): boolean {
  const sig = fields.sig;
  if (typeof sig !== 'string' || sig === '') return false;
  if (!VONAGE_SIGNATURE_METHODS.includes(method)) return false;
  const expected = Buffer.from(vonageSignature(fields, secret, method), 'utf8');
  const given = Buffer.from(sig.toLowerCase(), 'utf8');
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

/** A signed receipt older than this is refused: a captured one cannot be replayed later. */
export const VONAGE_SIGNATURE_MAX_AGE_SECONDS = 300;
/** How far ahead of our clock a signed `timestamp` may be (clocks drift). */
export const VONAGE_SIGNATURE_MAX_SKEW_SECONDS = 60;

/**
 * Why a signed receipt's `timestamp` (unix seconds, one of the signed fields) is not fresh, or
 * null when it is. Without this check a receipt signed once could be sent again at any time.
 */
export function vonageTimestampProblem(
  fields: Record<string, string>,
  nowMs: number = Date.now(),
): string | null {
  const raw = fields.timestamp ?? '';
  if (!/^\d{1,12}$/.test(raw))
    return 'signed receipt without a valid timestamp';
  const age = Math.floor(nowMs / 1000) - Number(raw);
  if (age > VONAGE_SIGNATURE_MAX_AGE_SECONDS) {
    return `signed receipt older than ${VONAGE_SIGNATURE_MAX_AGE_SECONDS} s`;
  }
  if (age < -VONAGE_SIGNATURE_MAX_SKEW_SECONDS) {
    return 'signed receipt timestamp is in the future';
  }
  return null;
}
