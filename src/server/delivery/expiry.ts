/**
 * This node's delivery housekeeping:
 * - expiry: SUBMITTED past the validity with no final receipt → EXPIRED, a bounded batch per
 *   statement until none is left. Every node runs it (expire_messages is safe to race); one
 *   pass at a time on this node;
 * - hourly, expired idempotency keys and never-claimed receipts go (they only take space).
 */
import type { Db } from '../db/client.ts';
import { expiryCheckMs } from './policy.ts';
import * as repo from './repo.ts';
import type { DeliveryLogger, DeliveryObserver } from './types.ts';

export interface ExpiryOptions {
  db: Db;
  /** MESSAGE_VALIDITY_SECONDS. */
  validitySeconds: number;
  observer: DeliveryObserver;
  logger: DeliveryLogger;
}

export interface Expiry {
  /** Stops both timers and waits for an expiry pass under way (it stops after its batch). */
  stop(): Promise<void>;
}

export function startExpiry(options: ExpiryOptions): Expiry {
  const { db, validitySeconds, observer, logger } = options;
  let stopping = false;

  const housekeeping = setInterval(
    () =>
      void repo
        .deleteExpired(db)
        .catch((err) => logger.warn({ err }, 'delivery housekeeping failed')),
    3_600_000,
  );
  housekeeping.unref();

  let expiring: Promise<void> | null = null;
  async function expire() {
    try {
      for (;;) {
        const ids = await repo.expireMessages(db, validitySeconds);
        if (ids.length > 0) {
          observer.messages?.('EXPIRED', ids.length);
          logger.info(
            { messages: ids.length },
            'no receipt within the validity period: EXPIRED',
          );
        }
        if (ids.length < repo.EXPIRE_BATCH || stopping) return;
      }
    } catch (err) {
      logger.warn({ err }, 'message expiry failed');
    }
  }
  const expiry = setInterval(() => {
    expiring ??= expire().finally(() => (expiring = null));
  }, expiryCheckMs(validitySeconds));
  expiry.unref();

  return {
    async stop() {
      stopping = true;
      clearInterval(housekeeping);
      clearInterval(expiry);
      await expiring;
    },
  };
}
