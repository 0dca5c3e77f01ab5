/**
 * Request ids (CONTRACT.md "Running it in production"): every answer carries `X-Request-Id`, the
 * same id is the access log line's `reqId` and is in every 5xx body. A caller's (or a proxy's)
 * id is kept when valid, so one id follows a request through the proxy's log and ours;
 * anything else gets a new one.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * A valid incoming id: 1 to 128 of `A-Z a-z 0-9 . _ : -`. Enough for a UUID, a ULID, a
 * trace id or nginx's `$request_id`; nothing that could break a header or a log line (no
 * space, quote, comma or control character), and short enough not to bloat the log.
 */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function isValidRequestId(id: unknown): id is string {
  return typeof id === 'string' && VALID_REQUEST_ID.test(id);
}

/** Fastify's genReqId: the caller's valid X-Request-Id, else a new UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return isValidRequestId(given) ? given : randomUUID();
}
