import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { IdempotencyKeySchema } from '../shared/schemas/messages.ts';
import { badRequest } from './errors.ts';

/** The request's `Idempotency-Key` (single sends and batches), checked; undefined without one. */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const parsed = IdempotencyKeySchema.safeParse(header);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
  return parsed.data;
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
