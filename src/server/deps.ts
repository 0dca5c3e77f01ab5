import { ThrottledLog } from './audit/throttled-log.ts';
import { CredentialCache } from './auth/credential-cache.ts';
import { KnownAddresses } from './auth/known-addresses.ts';
import {
  LoginThrottle,
  SlidingWindow,
  type SignInThrottle,
} from './auth/login-throttle.ts';
import type { Principal } from './auth/principal.ts';
import { listenForRevocations } from './auth/revocations.ts';
import { SharedLoginThrottle } from './auth/shared-throttle.ts';
import { SecretUsage } from './auth/secret-usage.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Listener } from './db/listen.ts';
import { ReceiptInbox } from './delivery/receipt-inbox.ts';
import { Waker } from './delivery/waker.ts';
import { OptOutCount } from './inbound/opt-out-count.ts';
import { InboundInbox } from './inbound/inbox.ts';

/** What route plugins and services are built from: created once by buildApp. */
export interface Deps {
  config: Config;
  db: Db;
  /**
   * Per node: each node verifies and caches credentials on its own; on PostgreSQL every node
   * drops what another node's change revoked (`revocations`).
   */
  credentials: CredentialCache<Principal>;
  /** On PostgreSQL: the LISTEN that tells this node what other nodes revoked. */
  revocations?: Listener;
  /** Password and secret tries: in PostgreSQL for every node, in memory when embedded. */
  throttle: SignInThrottle;
  /** Where each user signed in lately: in the database, cached per node. */
  knownAddresses: KnownAddresses;
  /** One audit event per address and lock of refused sign-ins, its count kept current. */
  throttledLog: ThrottledLog;
  /** Per node: registrations counted by address. */
  registrations: SlidingWindow;
  /** Per node: "Send test event" calls counted by client. */
  callbackTests: SlidingWindow;
  /** When each client's secret was last used: in the database, written at most once a minute. */
  secretUsage: SecretUsage;
  /** Told after each accepted send, so this node's delivery workers fetch at once. */
  deliveryWake: Waker;
  /** Where the providers' webhooks hand receipts (this node's workers, or straight to SQL). */
  deliveryReceipts: ReceiptInbox;
  /** Told of each number opted out through the API (sms_optouts_total{source="api"}). */
  optOutCount: OptOutCount;
  /**
   * The one inbound writer: every method's receiver (the SMPP bind, the inbound webhooks) hands
   * it what it received. Sweeps the overdue parts of concatenated messages (started by the app).
   */
  inbound: InboundInbox;
}

interface WarnLog {
  warn(details: object, message: string): void;
}

/** Lets the writes made off the requests' path land: before the database closes. */
export async function settleDeps(deps: Deps): Promise<void> {
  await Promise.all([
    deps.throttledLog.close(),
    deps.knownAddresses.drain(),
    deps.revocations?.close(),
    deps.inbound.close(),
  ]);
}

export function createDeps(config: Config, db: Db, log?: WarnLog): Deps {
  const credentials = new CredentialCache<Principal>();
  const shared = db.kind === 'postgres' ? config.databaseUrl : undefined;
  return {
    config,
    db,
    credentials,
    ...(shared && {
      revocations: listenForRevocations(shared, credentials, (err) =>
        log?.warn({ err }, 'listening for revoked credentials failed'),
      ),
    }),
    throttle: shared
      ? new SharedLoginThrottle(db, (err) =>
          log?.warn({ err }, 'counting failed sign-ins failed'),
        )
      : new LoginThrottle(),
    knownAddresses: new KnownAddresses(db, (err) =>
      log?.warn({ err }, 'recording where a user signed in failed'),
    ),
    throttledLog: new ThrottledLog(db, (err) =>
      log?.warn({ err }, 'auditing refused sign-ins failed'),
    ),
    registrations: new SlidingWindow(60_000),
    callbackTests: new SlidingWindow(60_000),
    secretUsage: new SecretUsage(db, (err) =>
      log?.warn({ err }, 'recording when a client secret was used failed'),
    ),
    deliveryWake: new Waker(),
    deliveryReceipts: new ReceiptInbox(db),
    optOutCount: new OptOutCount(),
    inbound: new InboundInbox(db, log),
  };
}
