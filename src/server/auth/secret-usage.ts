import type { Queryable } from '../db/client.ts';
import { touchSecretLastUsed } from './repo.ts';

/** A client's `secretLastUsedAt` moves at most this often. */
export const SECRET_USE_RESOLUTION_MS = 60_000;
const MAX_TRACKED = 100_000;

/**
 * Records when each API client's secret was last used, in the database so every node shows the
 * same time, but off the hot path: a request never waits for the write, and a node writes at
 * most once a minute per client. It remembers the last time it knows of (from its own write or
 * from the row it read when checking the secret), so a recently used client costs no query;
 * the write itself is conditional, so several nodes together still move it once a minute.
 */
export class SecretUsage {
  private readonly known = new Map<string, number>();
  private readonly db: Queryable;
  private readonly onError: (error: unknown) => void;

  constructor(db: Queryable, onError: (error: unknown) => void) {
    this.db = db;
    this.onError = onError;
  }

  /** What the database said when the secret was checked. */
  observe(clientId: string, lastUsedAt: Date | null): void {
    if (!lastUsedAt) return;
    const at = lastUsedAt.getTime();
    if ((this.known.get(clientId) ?? -Infinity) < at)
      this.remember(clientId, at);
  }

  /**
   * The secret was just used. Answers the write when one was started (tests await it);
   * callers on the request path do not.
   */
  used(clientId: string, now = Date.now()): Promise<void> | undefined {
    const last = this.known.get(clientId);
    if (last !== undefined && last > now - SECRET_USE_RESOLUTION_MS) {
      return undefined;
    }
    // Taken at once, so the requests arriving while the write runs do not start their own.
    this.remember(clientId, now);
    return touchSecretLastUsed(this.db, clientId).then(
      (written) => {
        if (written) this.remember(clientId, written.getTime());
      },
      (error: unknown) => {
        // Tried again at the next use rather than a minute later.
        if (this.known.get(clientId) === now) this.known.delete(clientId);
        this.onError(error);
      },
    );
  }

  private remember(clientId: string, at: number): void {
    this.known.delete(clientId);
    this.known.set(clientId, at);
    if (this.known.size > MAX_TRACKED) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
  }
}
