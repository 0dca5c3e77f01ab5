import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { IdempotencyKeySchema } from '../shared/schemas/messages.ts';
import {
  badRequest,
  notFound,
  paymentRequired,
  unprocessable,
} from './errors.ts';

/** The request's `Idempotency-Key` (single sends and batches), checked; undefined without one. */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const parsed = IdempotencyKeySchema.safeParse(header);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
  return parsed.data;
}

export const NOT_ENOUGH_BALANCE = 'Not enough balance';
export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used with a different request';

/** What a send (single or batch) can be refused for before anything is priced per recipient. */
export type SendRefusal =
  { kind: 'no-client' } | { kind: 'no-balance' } | { kind: 'key-reused' };

/** The one answer of each refusal both sends share: 404, 402 and 422 with the same texts. */
export function sendRefused(refusal: SendRefusal) {
  switch (refusal.kind) {
    case 'no-client':
      return notFound('Client');
    case 'no-balance':
      return paymentRequired(NOT_ENOUGH_BALANCE);
    case 'key-reused':
      return unprocessable(IDEMPOTENCY_KEY_REUSED, 'idempotency_key_reused');
  }
}

/**
 * What tells a repeat of a request from another request under the same key (single sends and
 * batches): a hash of its checked body, keys sorted, with `sendAt` as the instant it names, so
 * the same time written with another UTC offset (`…Z`, `…+02:00`) is the same request.
 */
export function requestHash(input: {
  [field: string]: unknown;
  sendAt?: string | null | undefined;
}): string {
  const sendAt = input.sendAt
    ? new Date(input.sendAt).toISOString()
    : input.sendAt;
  const sorted = Object.fromEntries(
    Object.entries({ ...input, sendAt }).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

/** What a send stores under its key: the key and its request's hash; nothing without a key. */
export function idempotencyClaim(
  key: string | undefined,
  request: Parameters<typeof requestHash>[0],
): { key: string; requestHash: string } | undefined {
  return key ? { key, requestHash: requestHash(request) } : undefined;
}
