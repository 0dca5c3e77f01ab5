import type { FastifyReply, FastifyRequest } from 'fastify';
import { isKnownRole } from '../../shared/roles.ts';
import type { Queryable } from '../db/client.ts';
import { tooManyRequests, unauthorized } from '../errors.ts';
import {
  dummyPasswordHash,
  secretMatches,
  verifyPassword,
} from './passwords.ts';
import type { CredentialCache, Verified } from './credential-cache.ts';
import type { KnownAddresses } from './known-addresses.ts';
import type { SecretUsage } from './secret-usage.ts';
import type { Attempt, SignInThrottle } from './login-throttle.ts';
import type { Principal } from './principal.ts';
import * as repo from './repo.ts';

/**
 * What authentication needs of the node (deps.ts builds it): auth depends on these, not on the
 * composition root, so deps → auth points one way.
 */
export interface AuthServices {
  db: Queryable;
  credentials: CredentialCache<Principal>;
  throttle: SignInThrottle;
  knownAddresses: KnownAddresses;
  secretUsage: SecretUsage;
  /** Where refused tries are reported (the audit log's ThrottledLog): never waits. */
  throttledLog: {
    refused(attempt: {
      account: string;
      ip: string;
      retryAfterSeconds: number;
    }): void;
  };
}

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

async function rolesOf(deps: AuthServices, userId: string): Promise<string[]> {
  return (await repo.listUserRoles(deps.db, userId))
    .map((r) => r.role)
    .filter(isKnownRole);
}

/**
 * Checks a pair against the database: e-mail + password, or client id + secret (the current
 * one, or the one a reset replaced while its grace lasts).
 */
async function verify(
  deps: AuthServices,
  username: string,
  password: string,
): Promise<Verified<Principal> | undefined> {
  if (UUID.test(username)) {
    const client = await repo.findClientCredentials(deps.db, username);
    if (!client) return undefined;
    deps.secretUsage.observe(client.clientId, client.secretLastUsedAt);
    let expiresAt: number | undefined;
    if (!secretMatches(password, client.secretHash)) {
      const graceLeft = client.previousSecretMsLeft;
      if (
        !client.previousSecretHash ||
        graceLeft === null ||
        !secretMatches(password, client.previousSecretHash)
      ) {
        return undefined;
      }
      // Cached no longer than the grace lasts.
      expiresAt = Date.now() + graceLeft;
    }
    const user = client.owner;
    return {
      value: {
        kind: 'client',
        clientId: client.clientId,
        user,
        roles: await rolesOf(deps, user.id),
      },
      subjects: [client.clientId, user.id],
      ...(expiresAt === undefined ? {} : { expiresAt }),
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
    value: { kind: 'user', user, roles: await rolesOf(deps, user.id) },
    subjects: [user.id],
  };
}

/** The secret of an API client was used: recorded off the request's path. */
function noteUse(deps: AuthServices, principal: Principal): void {
  if (principal.kind === 'client')
    void deps.secretUsage.used(principal.clientId);
}

/**
 * Reserves a try at a user's password (see LoginThrottle): an Attempt, or the seconds to wait.
 * Only when a cap that a known address lifts refuses the try is the database asked whether the
 * owner signed in at this address lately.
 */
async function reservePasswordTry(
  deps: AuthServices,
  account: string,
  address: string,
): Promise<Attempt | number> {
  const attempt = await deps.throttle.reserveUser(account, address);
  if (
    typeof attempt === 'number' &&
    (await deps.throttle.refusedOnlyForUnknownAddress(account, address)) &&
    (await deps.knownAddresses.isKnown(account, address))
  ) {
    return deps.throttle.reserveUser(account, address, true);
  }
  return attempt;
}

/**
 * onRequest hook of the authenticated scopes: HTTP Basic with e-mail and password, or with a
 * client id and secret. Never answers `WWW-Authenticate: Basic` (browsers would pop up a box).
 *
 * The user name is normalised first (e-mails and client ids in any letter case are one
 * account), so all its spellings share one cache entry and one throttle count. Requests for a
 * pair already being checked wait for that check instead of starting another.
 *
 * A password try is reserved with the throttle before the check and given back when it was
 * right, so parallel requests cannot all pass the gate while the KDF runs. A client secret
 * cannot be guessed and is cheap to check: it is always checked, a right one always accepted,
 * and only a wrong one counts (and is answered 429 once its address is over the limit). Each
 * 429 is told to the audit log, which keeps one event per address and lock.
 *
 * `admit` is the scope's own rule, run once the caller is known (in the same hook, so a
 * scope costs one hook per request): an error refuses the call.
 */
export function authenticate(
  deps: AuthServices,
  admit: (request: FastifyRequest) => Error | undefined = () => undefined,
) {
  // A callback hook: a cached credential (nearly every call) is accepted without a promise.
  return function authenticateHook(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: (error?: Error) => void,
  ): void {
    const credentials = parseBasic(request.headers.authorization);
    if (!credentials) return done(unauthorized());
    const account = credentials.username.toLowerCase();
    const { password } = credentials;
    const key = deps.credentials.keyOf(account, password);
    const cached = deps.credentials.get(key);
    if (cached) {
      request.principal = cached;
      noteUse(deps, cached);
      return done(admit(request));
    }
    checkUncached(deps, request, account, password, key).then(
      () => done(admit(request)),
      done,
    );
  };
}

/** The rest of `authenticate`, for a pair the cache does not hold. */
async function checkUncached(
  deps: AuthServices,
  request: FastifyRequest,
  account: string,
  password: string,
  key: string,
): Promise<void> {
  const refuse = (retryAfterSeconds: number) => {
    deps.throttledLog.refused({
      account,
      ip: request.ip,
      retryAfterSeconds,
    });
    return tooManyRequests(retryAfterSeconds);
  };
  // The same pair is being checked already: share its answer. No try is spent, as no new
  // guess is made and no KDF runs.
  const running = deps.credentials.running(key);
  if (running) {
    const shared = await running;
    if (!shared) throw unauthorized('Invalid credentials');
    request.principal = shared;
    noteUse(deps, shared);
    return;
  }
  if (UUID.test(account)) {
    const principal = await deps.credentials.verifyOnce(key, () =>
      verify(deps, account, password),
    );
    if (!principal) {
      const wait = await deps.throttle.secretFailed(request.ip);
      if (wait > 0) throw refuse(wait);
      throw unauthorized('Invalid credentials');
    }
    request.principal = principal;
    noteUse(deps, principal);
    return;
  }
  // The try is reserved inside the shared check: requests for the same pair arriving while
  // the reservation waits for the database (the fleet's throttle) share it, instead of each
  // spending a try (50 parallel first requests of one script were refused 429).
  const principal = await deps.credentials.verifyOnce(key, async () => {
    const attempt = await reservePasswordTry(deps, account, request.ip);
    if (typeof attempt === 'number') throw refuse(attempt);
    try {
      const verified = await verify(deps, account, password);
      if (verified) attempt.succeeded();
      return verified;
    } catch (error) {
      // The database failed, not the guess: the try is given back.
      attempt.cancel();
      throw error;
    }
  });
  if (!principal) throw unauthorized('Invalid credentials');
  if (principal.kind === 'user') {
    void deps.knownAddresses.signedIn(
      { id: principal.user.id, account },
      request.ip,
    );
  }
  request.principal = principal;
  noteUse(deps, principal);
}
