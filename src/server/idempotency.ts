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
