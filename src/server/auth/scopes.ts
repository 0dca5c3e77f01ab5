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

// Callback hooks, not async ones: each is a check with no waiting, and an async hook costs
// every request a promise and a microtask hop.
type Done = (error?: Error) => void;

function setActor(request: FastifyRequest, _reply: unknown, done: Done): void {
  if (!request.principal) return done(unauthorized());
  request.actor = { ...request.principal, ip: request.ip };
  done();
}

function refuseApiClients(
  request: FastifyRequest,
  _reply: unknown,
  done: Done,
): void {
  done(
    request.actor.kind === 'user' ? undefined : forbidden(API_CLIENT_REFUSED),
  );
}

/**
 * An API client's credentials reach only that one client: any other `:clientId` answers 404,
 * as if unknown. Checked once here, so no handler can forget it.
 */
function keepClientToItsOwnId(
  request: FastifyRequest,
  _reply: unknown,
  done: Done,
): void {
  const { actor } = request;
  if (actor.kind !== 'client') return done();
  const { clientId } = request.params as { clientId?: string };
  done(
    clientId?.toLowerCase() === actor.clientId.toLowerCase()
      ? undefined
      : notFound('Client'),
  );
}

export function publicScope(app: FastifyInstance): void {
  markScope(app, 'public');
}

export function userScope(app: FastifyInstance, deps: AuthServices): void {
  markScope(app, 'user');
  app.decorateRequest('actor', null as never);
  app.addHook('onRequest', authenticate(deps));
  app.addHook('onRequest', setActor);
  app.addHook('onRequest', refuseApiClients);
}

export function clientOrUserScope(
  app: FastifyInstance,
  deps: AuthServices,
): void {
  markScope(app, 'client-or-user');
  app.decorateRequest('actor', null as never);
  app.addHook('onRequest', authenticate(deps));
  app.addHook('onRequest', setActor);
  app.addHook('onRequest', keepClientToItsOwnId);
}

/** Any signed-in caller, user or API client: only for reads that name no client. */
export function signedInScope(app: FastifyInstance, deps: AuthServices): void {
  markScope(app, 'signed-in');
  app.decorateRequest('actor', null as never);
  app.addHook('onRequest', authenticate(deps));
  app.addHook('onRequest', setActor);
}

/** Registered inside the user scope: adds the role check of `config.role`. */
export function adminScope(app: FastifyInstance): void {
  markScope(app, 'admin');
  app.addHook('onRequest', requireRole);
}
