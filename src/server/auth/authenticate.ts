import type { FastifyRequest } from 'fastify';
import { isKnownRole } from '../../shared/roles.ts';
import { recordThrottled } from '../audit/record.ts';
import type { Deps } from '../deps.ts';
import { tooManyRequests, unauthorized } from '../errors.ts';
import {
  dummyPasswordHash,
  secretMatches,
  verifyPassword,
} from './passwords.ts';
import type { Principal } from './principal.ts';
import * as repo from './repo.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseBasic(header: string | undefined) {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  return {
    username: decoded.slice(0, colon),
    password: decoded.slice(colon + 1),
  };
}

async function rolesOf(deps: Deps, userId: string): Promise<string[]> {
  return (await repo.listUserRoles(deps.db, userId))
    .map((r) => r.role)
    .filter(isKnownRole);
}

/** Checks a pair against the database: e-mail + password, or client id + secret. */
async function verify(
  deps: Deps,
  username: string,
  password: string,
): Promise<{ principal: Principal; subjects: string[] } | undefined> {
  if (UUID.test(username)) {
    const client = await repo.findClientCredentials(deps.db, username);
    if (!client || !secretMatches(password, client.secretHash))
      return undefined;
    const user = client.owner;
    return {
      principal: {
        kind: 'client',
        clientId: client.clientId,
        user,
        roles: await rolesOf(deps, user.id),
      },
      subjects: [client.clientId, user.id],
    };
  }
  const found = await repo.findCredentialsByEmail(deps.db, username);
  const ok = await verifyPassword(
    password,
    found?.passwordHash ?? (await dummyPasswordHash()),
  );
  if (!found || !ok) return undefined;
  const { passwordHash: _hash, ...user } = found;
  return {
    principal: { kind: 'user', user, roles: await rolesOf(deps, user.id) },
    subjects: [user.id],
  };
}

/** Records the lock in the audit log without delaying the answer; a failure is only logged. */
function auditThrottled(
  deps: Deps,
  request: FastifyRequest,
  account: string,
  retryAfterSeconds: number,
): void {
  recordThrottled(deps.db, {
    account,
    ip: request.ip,
    retryAfterSeconds,
  }).catch((error: unknown) =>
    request.log.error({ err: error }, 'could not audit a throttled login'),
  );
}

/**
 * onRequest hook of the authenticated scopes: HTTP Basic with e-mail and password, or with a
 * client id and secret. Never answers `WWW-Authenticate: Basic` (browsers would pop up a box).
 */
export function authenticate(deps: Deps) {
  return async function authenticateHook(
    request: FastifyRequest,
  ): Promise<void> {
    const credentials = parseBasic(request.headers.authorization);
    if (!credentials) throw unauthorized();
    const { username, password } = credentials;
    const key = deps.credentials.keyOf(username, password);
    const cached = deps.credentials.get(key);
    if (cached) {
      request.principal = cached;
      return;
    }
    const account = username.toLowerCase();
    const wait = deps.throttle.retryAfter(account, request.ip);
    if (wait > 0) throw tooManyRequests(wait);
    const verified = await verify(deps, username, password);
    if (!verified) {
      // Read just around the count, with no await between: only the failure that sets a lock
      // is audited, once per lock however many attempts race or are refused after it.
      const wasLocked = deps.throttle.retryAfter(account, request.ip) > 0;
      deps.throttle.recordFailure(account, request.ip);
      const locked = deps.throttle.retryAfter(account, request.ip);
      if (!wasLocked && locked > 0)
        auditThrottled(deps, request, account, locked);
      throw unauthorized('Invalid credentials');
    }
    deps.credentials.set(key, verified.principal, verified.subjects);
    request.principal = verified.principal;
  };
}
