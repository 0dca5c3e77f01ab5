import type { FastifyRequest } from 'fastify';
import { isKnownRole } from '../../shared/roles.ts';
import {
  dummyPasswordHash,
  secretMatches,
  verifyPassword,
} from '../auth/passwords.ts';
import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { forbidden, tooManyRequests, unauthorized } from '../errors.ts';
import { findClientCredentials } from '../features/clients/repo.ts';
import { listUserRoles } from '../features/roles/repo.ts';
import {
  findCredentialsByEmail,
  findUserById,
} from '../features/users/repo.ts';

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
  return (await listUserRoles(deps.db, userId))
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
    const client = await findClientCredentials(deps.db, username);
    if (!client || !secretMatches(password, client.secretHash))
      return undefined;
    const user = await findUserById(deps.db, client.userId);
    if (!user) return undefined;
    return {
      principal: {
        kind: 'client',
        clientId: client.id,
        user,
        roles: await rolesOf(deps, user.id),
      },
      subjects: [client.id, user.id],
    };
  }
  const found = await findCredentialsByEmail(deps.db, username);
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

/**
 * onRequest hook of the authenticated scope: HTTP Basic with e-mail and password, or with a
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
      deps.throttle.recordFailure(account, request.ip);
      throw unauthorized('Invalid credentials');
    }
    deps.credentials.set(key, verified.principal, verified.subjects);
    request.principal = verified.principal;
  };
}

/** The calling user; API client credentials are refused for calls that are not the client's own. */
export function userOf(request: FastifyRequest): Principal & { kind: 'user' } {
  const principal = request.principal;
  if (!principal) throw unauthorized();
  if (principal.kind !== 'user') {
    throw forbidden(
      "API client credentials can only be used for that client's balance and messages",
    );
  }
  return principal;
}

/** The calling principal, user or API client. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
