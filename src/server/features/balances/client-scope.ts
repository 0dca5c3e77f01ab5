import type { FastifyRequest } from 'fastify';
import { notFound } from '../../errors.ts';
import { principalOf } from '../../plugins/authenticate.ts';

/**
 * The user whose client a customer call may touch. A user acts on their own clients; an API
 * client's credentials reach only that one client, so any other id answers 404 as if unknown.
 */
export function ownerOfCall(request: FastifyRequest, clientId: string): string {
  const principal = principalOf(request);
  if (principal.kind === 'client' && principal.clientId !== clientId) {
    throw notFound('Client');
  }
  return principal.user.id;
}
