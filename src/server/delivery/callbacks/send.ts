/**
 * One status-callback attempt: resolve and check the target, POST the signed body to the
 * checked address, report what happened. Retrying is the durable queue's business
 * (callbackRetryDelaySeconds gives its schedule), so that a restart loses no callback.
 *
 * node:http rather than fetch: its `lookup` option pins the connection to the address that was
 * checked (the URL's host name still goes in the Host header and TLS SNI/certificate check),
 * and it never follows redirects, so a 3xx cannot lead us to an unchecked target.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { CALLBACK_RETRY_DELAYS_SECONDS } from '../../../shared/limits.ts';
import { signCallback, SIGNATURE_HEADER } from './signature.ts';
import { resolveCallbackTarget, type ResolveOptions } from './target.ts';

export interface PostCallbackOptions extends ResolveOptions {
  /** No answer within this is a failure (contract: 10 s). */
  timeoutMs?: number;
  /** Signing time (unix seconds), default now. */
  nowSeconds?: number;
}

export interface CallbackResult {
  /** A 2xx answer. */
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why it is not ok (shown on the message's callback attempts). */
  error?: string;
  /** The target was refused before any request (private address, no DNS answer…). */
  refused?: boolean;
  durationMs: number;
}

export const CALLBACK_TIMEOUT_MS = 10_000;

/**
 * Seconds to wait after failed attempt number `attempt` (1 = the first delivery) before the
 * next one, or null to give up: the schedule is shared with the console, which shows it.
 */
export function callbackRetryDelaySeconds(attempt: number): number | null {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new Error(`callback attempt must be an integer ≥ 1, got ${attempt}`);
  }
  return CALLBACK_RETRY_DELAYS_SECONDS[attempt - 1] ?? null;
}

const USER_AGENT = 'messaging-console-status-callback/1';

/** POSTs `body` (the raw JSON of callbackBody) to `url`, signed with `key`. Never rejects. */
export async function postCallback(
  url: string,
  body: string,
  key: string,
  {
    timeoutMs = CALLBACK_TIMEOUT_MS,
    nowSeconds,
    ...resolveOptions
  }: PostCallbackOptions = {},
): Promise<CallbackResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  const target = await resolveCallbackTarget(url, resolveOptions);
  if (!target.ok) {
    return {
      ok: false,
      refused: true,
      error: target.message,
      durationMs: elapsed(),
    };
  }
  const { address, family } = target;
  // Pinned: whatever the name resolves to by now, we connect to the address we checked.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  const seconds = timeoutMs / 1000;

  return new Promise<CallbackResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<CallbackResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(target.url, {
      method: 'POST',
      lookup,
      agent: false, // one connection per attempt: nothing pooled to an earlier address
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body, 'utf8'),
        'user-agent': USER_AGENT,
        [SIGNATURE_HEADER]: signCallback(body, key, nowSeconds),
      },
    });
    const deadline = setTimeout(() => {
      finish({ ok: false, error: `no answer within ${seconds} s` });
      request.destroy();
    }, timeoutMs);

    request.on('response', (response) => {
      // The status is the whole answer: the body is not read, the connection is closed.
      const status = response.statusCode ?? 0;
      response.on('error', () => {}); // the reset we cause below
      response.resume();
      request.destroy();
      if (status >= 200 && status < 300) {
        finish({ ok: true, status });
      } else if (status >= 300 && status < 400) {
        finish({
          ok: false,
          status,
          error: `receiver answered HTTP ${status} (redirects are not followed)`,
        });
      } else {
        finish({
          ok: false,
          status,
          error: `receiver answered HTTP ${status}`,
        });
      }
    });
    request.on('error', (error: Error & { code?: string }) => {
      finish({
        ok: false,
        error: `receiver unreachable: ${error.code ? `${error.code} ` : ''}${error.message}`,
      });
    });
    request.end(body);
  });
}
