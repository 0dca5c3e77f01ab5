import { listen, type Listener } from '../db/listen.ts';
import type { CredentialCache } from './credential-cache.ts';

/** Notified by migrations/012-fleet-sign-in.sql's triggers with a user's or client's id. */
export const REVOKED_CHANNEL = 'auth_revoked';

/**
 * Keeps this node's credential cache in step with every other node's changes on PostgreSQL:
 * a change that revokes a user's or client's credentials notifies their id at its commit, and
 * this node drops their cached entries (as the node that made the change already did).
 *
 * Only while the LISTEN is in place does the node cache: until it first is, and whenever its
 * connection drops, every credential is checked against the database (slower, never stale);
 * when it is back the cache starts empty, since notifications sent in between were missed.
 */
export function listenForRevocations(
  connectionString: string,
  credentials: Pick<CredentialCache<unknown>, 'forget' | 'suspend' | 'resume'>,
  onError: (error: unknown) => void,
): Listener {
  credentials.suspend();
  return listen(connectionString, REVOKED_CHANNEL, {
    onNotify: (subject) => credentials.forget(subject),
    onListening: () => credentials.resume(),
    onDown: () => credentials.suspend(),
    onError,
  });
}
