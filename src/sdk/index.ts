/**
 * A typed client of the API, for integrators and for our own tests: openapi-fetch over the types
 * openapi-typescript generates from /api/openapi.json (schema.ts, `npm run sdk`). Each call is
 * named by its path and checked against the description at compile time:
 *
 *   const sms = createSmsClient({ baseUrl, username: clientId, password: secret });
 *   const { data, error } = await sms.POST('/api/clients/{clientId}/messages/sms', {
 *     params: { path: { clientId }, header: { 'Idempotency-Key': 'order-1042' } },
 *     body: { sender: 'Shop', recipient: '+44 7700 900123', body: 'Your order has shipped' },
 *   });
 *   if (error) console.log(error.code); // 'insufficient_balance', 'rate_limited', …
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export type { components, operations, paths, webhooks } from './schema.ts';

type Schemas = components['schemas'];
export type ApiError = Schemas['Error'];
/** The stable `code` of an error answer (README, "API for integrators"). */
export type ErrorCode = ApiError['code'];
export type Message = Schemas['Message'];
export type MessageDetail = Schemas['MessageDetail'];
export type MessageState = Message['state'];
export type Batch = Schemas['Batch'];
export type Balance = Schemas['Balance'];
export type Quote = Schemas['Quote'];
/** The body POSTed to a client's status callback URL (signed: X-Signature). */
export type StatusCallbackEvent = Schemas['StatusCallbackEvent'];
export type SmsClient = Client<paths>;

/** States after which a message changes no more. */
export const FINAL_STATES: readonly MessageState[] = [
  'DELIVERED',
  'UNDELIVERED',
  'EXPIRED',
  'REJECTED',
  'FAILED',
  'CANCELED',
];

export interface SmsClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The server, e.g. https://sms.example.com (its PUBLIC_URL); paths start with /api. */
  baseUrl: string;
  /** An API client's id (or a user's e-mail). */
  username: string;
  /** That client's secret (or the user's password). */
  password: string;
}

/** HTTP Basic of UTF-8 credentials, in Node and in browsers alike. */
function basic(username: string, password: string): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

export function createSmsClient(options: SmsClientOptions): SmsClient {
  const { username, password, headers, ...rest } = options;
  return createClient<paths>({
    ...rest,
    headers: {
      ...(headers as Record<string, string> | undefined),
      authorization: basic(username, password),
    },
  });
}

/**
 * Reads the message until it reaches a final state (or `timeoutMs` passes, which throws):
 * polling for scripts; a server should rather take the status callback (webhooks.messageStatus).
 */
export async function waitForFinalState(
  sms: SmsClient,
  clientId: string,
  messageId: string,
  { timeoutMs = 60_000, intervalMs = 500 } = {},
): Promise<MessageDetail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data, error } = await sms.GET(
      '/api/clients/{clientId}/messages/{messageId}',
      { params: { path: { clientId, messageId } } },
    );
    if (error) throw new Error(`${error.code}: ${error.message}`);
    if (FINAL_STATES.includes(data.state)) return data;
    if (Date.now() > deadline) {
      throw new Error(
        `message ${messageId} still ${data.state} after ${timeoutMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
