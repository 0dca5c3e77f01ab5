import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { forbidden, notFound, unauthorized } from '../errors.ts';
import { authenticate } from './authenticate.ts';
import type { Actor, UserPrincipal } from './principal.ts';
import { requireRole } from './require-role.ts';

/**
 * Who may call a route is decided by the scope it is registered in, never by each handler:
 * - `public`: anyone (health, branding, register);
 * - `user`: a user's e-mail and password; API-client credentials get 403;
 * - `client-or-user`: also an API client's id and secret, for that client's own calls;
 * - `admin`: a user holding the role the route declares in `config.role`.
 */
export type Scope = 'public' | 'user' | 'client-or-user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: Scope;
  }
}

export const API_CLIENT_REFUSED =
  "API client credentials can only be used for that client's balance and messages";

/** Stamps every route registered in `app` (and its children) with its scope. */
function markScope(app: FastifyInstance, scope: Scope): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, scope };
  });
}

async function refuseApiClients(request: FastifyRequest): Promise<void> {
  if (request.principal?.kind !== 'user') throw forbidden(API_CLIENT_REFUSED);
}

export function publicScope(app: FastifyInstance): void {
  markScope(app, 'public');
}

export function userScope(app: FastifyInstance, deps: Deps): void {
  markScope(app, 'user');
  app.addHook('onRequest', authenticate(deps));
  app.addHook('onRequest', refuseApiClients);
}

export function clientOrUserScope(app: FastifyInstance, deps: Deps): void {
  markScope(app, 'client-or-user');
  app.addHook('onRequest', authenticate(deps));
}

/** Registered inside the user scope: adds the role check of `config.role`. */
export function adminScope(app: FastifyInstance): void {
  markScope(app, 'admin');
  app.addHook('onRequest', requireRole);
}

/**
 * The caller of an authenticated route (a user, or an API client acting for its owner) with
 * the request's address: the one way routes hand the acting principal to services.
 */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.principal) throw unauthorized();
  return { ...request.principal, ip: request.ip };
}

/** The user calling a route of the user or admin scope (whose hook refused anyone else). */
export function userOf(request: FastifyRequest): UserPrincipal & Actor {
  const actor = actorOf(request);
  if (actor.kind !== 'user') throw forbidden(API_CLIENT_REFUSED);
  return actor;
}

/**
 * The user whose client a client-or-user call may touch. A user acts on their own clients; an
 * API client's credentials reach only that one client, so any other id answers 404 as if unknown.
 */
export function ownerOfClientCall(
  request: FastifyRequest,
  clientId: string,
): string {
  const actor = actorOf(request);
  if (actor.kind === 'client' && actor.clientId !== clientId) {
    throw notFound('Client');
  }
  return actor.user.id;
}
