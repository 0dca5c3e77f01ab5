/**
 * The WORLD_SPECIAL connector: the contract's generic HTTP gateway (CONTRACT.md, "Generic HTTP
 * gateway"). Submit is `POST WORLD_SPECIAL_URL` with `Authorization: Bearer WORLD_SPECIAL_TOKEN`
 * and JSON {messageId, from, to, text, encoding, statusUrl}:
 * - 2xx {"id": "<gateway id>"}: submitted, one provider id for the whole message;
 * - 4xx: refused, no retry (fail over) — except 429 Too Many Requests, which asks us to slow
 *   down rather than saying no, and is retried like a 5xx;
 * - 5xx, a timeout, a network error: backoff with jitter and again, bounded, then 'retry';
 * - a 2xx without a usable id: 'retry' at once (it may have been taken: no immediate resend).
 * Receipts come back on `POST /api/webhooks/world-special/dlr` with the same bearer token; the
 * route checks it with bearerMatches, parses with parseGenericGatewayReceipt and hands the
 * receipt to the ReceiptInbox (receipt-inbox.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  SubmitterConnector,
  type AttemptResult,
  type HttpAnswer,
  type RetryPolicy,
} from '../http/submitter.ts';
import { storableText } from '../../../shared/text.ts';
import { RECEIPT_ERROR_MAX, receiptIdProblem } from '../receipt-fields.ts';
import type {
  Connector,
  DeliveryLogger,
  OutgoingSms,
  Receipt,
  SubmitOutcome,
} from '../types.ts';

export interface GenericGatewayConnectorOptions extends RetryPolicy {
  /** WORLD_SPECIAL_URL */
  url: string;
  /** WORLD_SPECIAL_TOKEN */
  token: string;
  /** PUBLIC_URL/api/webhooks/world-special/dlr */
  statusUrl: string;
  /** Per HTTP request (default 10 s). */
  timeoutMs?: number;
  /** Requests in flight to the gateway at once (default 10). */
  concurrency?: number;
  logger: DeliveryLogger;
}

const NAME = 'WORLD_SPECIAL gateway';

/** Takes one HTTP answer of the gateway. Exported for tests. */
export function readGenericGatewayAnswer(answer: HttpAnswer): AttemptResult {
  if (answer.kind === 'failed') {
    return { kind: 'transient', error: answer.error };
  }
  const { status, text } = answer;
  // Cut without splitting a character: half an emoji cannot be stored, and the message stayed
  // ACCEPTED (and charged) while every write of its attempt failed.
  const detail = storableText(text.trim(), 200);
  const described = `${NAME} HTTP ${status}${detail ? `: ${detail}` : ''}`;
  if (status === 429) {
    return { kind: 'transient', error: described, throttled: true };
  }
  if (status >= 500) return { kind: 'transient', error: described };
  if (status < 200 || status >= 300)
    return { kind: 'refused', error: described };
  let id: unknown;
  try {
    id = (JSON.parse(text) as { id?: unknown } | null)?.id;
  } catch {
    id = undefined;
  }
  if (typeof id === 'number' && Number.isFinite(id)) id = String(id);
  if (typeof id !== 'string' || id.trim() === '') {
    return {
      kind: 'retry',
      error: `${NAME} HTTP ${status} without an "id" in its answer`,
    };
  }
  return { kind: 'submitted', providerMessageIds: [id] };
}

export function createGenericGatewayConnector(
  options: GenericGatewayConnectorOptions,
): Connector {
  return new GenericGatewayConnector(options);
}

class GenericGatewayConnector extends SubmitterConnector {
  readonly method = 'WORLD_SPECIAL' as const;
  readonly #options: GenericGatewayConnectorOptions;

  constructor(options: GenericGatewayConnectorOptions) {
    super(NAME, options);
    this.#options = options;
  }

  submit(sms: OutgoingSms): Promise<SubmitOutcome> {
    const closed = this.closedOutcome();
    if (closed) return closed;
    const body = JSON.stringify({
      messageId: sms.messageId,
      from: sms.from,
      to: sms.to,
      text: sms.text,
      encoding: sms.encoding,
      statusUrl: this.#options.statusUrl,
    });
    return this.submitter.submit(sms, async (signal) =>
      readGenericGatewayAnswer(
        await this.submitter.post(
          this.#options.url,
          {
            headers: {
              authorization: `Bearer ${this.#options.token}`,
              'content-type': 'application/json',
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

// ---- receipts ----

const STATES = {
  delivered: 'DELIVERED',
  undelivered: 'UNDELIVERED',
  expired: 'EXPIRED',
  rejected: 'REJECTED',
} as const;

const ReceiptSchema = z.object({
  // Checked before anything is stored: see receipt-fields.ts.
  id: z
    .union([
      z.string().trim(),
      z
        .number()
        .int()
        .transform((n) => String(n)),
    ])
    .superRefine((id, context) => {
      const problem = receiptIdProblem('id', id);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  status: z.enum(['delivered', 'undelivered', 'expired', 'rejected']),
  // Free text: cleaned and cut rather than refused, so the receipt itself is not lost.
  error: z
    .string()
    .nullish()
    .transform((text) =>
      text ? storableText(text.trim(), RECEIPT_ERROR_MAX) : null,
    ),
});

/**
 * The gateway's receipt body → our receipt, or an error message for a 400 answer. Pure: a
 * duplicate or a late receipt gives the same result (the queue keeps final states final).
 */
export function parseGenericGatewayReceipt(
  body: unknown,
): { receipt: Receipt } | { error: string } {
  const parsed = ReceiptSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'body';
    return {
      error: `invalid receipt: ${where}: ${issue?.message ?? 'invalid'} (expected {"id", "status": "delivered"|"undelivered"|"expired"|"rejected", "error"?})`,
    };
  }
  const { id, status, error } = parsed.data;
  const state = STATES[status];
  return {
    receipt: {
      providerMessageId: id,
      state,
      error:
        state === 'DELIVERED'
          ? null
          : error?.trim()
            ? `${status}: ${error.trim()}`
            : status,
    },
  };
}

/**
 * Does this Authorization header carry `Bearer <token>`? Both sides are hashed first, so the
 * constant-time comparison also hides the token's length. An empty configured token never
 * matches.
 */
export function bearerMatches(
  header: string | undefined,
  token: string,
): boolean {
  if (!token || typeof header !== 'string') return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) return false;
  const digest = (value: string) =>
    createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}
