import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, notFound, unauthorized } from '../errors.ts';
import { authenticate, type AuthServices } from './authenticate.ts';
import type { Actor } from './principal.ts';
import { requireRole } from './require-role.ts';

/**
 * Who may call a route is decided by the scope it is registered in, never by each handler:
 * - `public`: anyone (health, branding, register);
 * - `user`: a user's e-mail and password; API-client credentials get 403;
 * - `client-or-user`: also an API client's id and secret, for that client's own calls;
 * - `signed-in`: any user or any API client, for reads that are the same for everyone and name
 *   no client (the price list);
 * - `admin`: a user holding the role the route declares in `config.role`.
 */
export type Scope =
  'public' | 'user' | 'client-or-user' | 'signed-in' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: Scope;
  }
  interface FastifyRequest {
    /**
     * Who is calling, from which address: set by every authenticated scope before the handler
     * runs, the one way handlers know the caller. In the user and admin scopes it is always a
     * user; in the client-or-user scope it may be an API client, already checked against the
     * route's `:clientId`.
     */
    actor: Actor;
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

/**
 * The rules a scope applies once the caller is known, each run inside the scope's one
 * authentication hook (one hook per request, no extra hops through Fastify's hook runner): an
 * error refuses the call, in the order they were separate hooks before (401, then 403 or 404).
 */
function setActor(request: FastifyRequest): Error | undefined {
  if (!request.principal) return unauthorized();
  request.actor = { ...request.principal, ip: request.ip };
  return undefined;
}

function refuseApiClients(request: FastifyRequest): Error | undefined {
  return (
    setActor(request) ??
    (request.actor.kind === 'user' ? undefined : forbidden(API_CLIENT_REFUSED))
  );
}

/**
 * An API client's credentials reach only that one client: any other `:clientId` answers 404,
 * as if unknown. Checked once here, so no handler can forget it.
 */
function keepClientToItsOwnId(request: FastifyRequest): Error | undefined {
  const refused = setActor(request);
  if (refused) return refused;
  const { actor } = request;
  if (actor.kind !== 'client') return undefined;
  const { clientId } = request.params as { clientId?: string };
  return clientId?.toLowerCase() === actor.clientId.toLowerCase()
    ? undefined
    : notFound('Client');
}

export function publicScope(app: FastifyInstance): void {
  markScope(app, 'public');
}

export function userScope(app: FastifyInstance, deps: AuthServices): void {
  markScope(app, 'user');
  app.decorateRequest('actor', null as never);
  app.addHook('onRequest', authenticate(deps, refuseApiClients));
}

export function clientOrUserScope(
  app: FastifyInstance,
  deps: AuthServices,
): void {
  markScope(app, 'client-or-user');
  app.decorateRequest('actor', null as never);
  app.addHook('onRequest', authenticate(deps, keepClientToItsOwnId));
}

/** Any signed-in caller, user or API client: only for reads that name no client. */
export function signedInScope(app: FastifyInstance, deps: AuthServices): void {
  markScope(app, 'signed-in');
  app.decorateRequest('actor', null as never);
  app.addHook('onRequest', authenticate(deps, setActor));
}

/** Registered inside the user scope: adds the role check of `config.role`. */
export function adminScope(app: FastifyInstance): void {
  markScope(app, 'admin');
  app.addHook('onRequest', requireRole);
}
