/**
 * What startDelivery (engine.ts) takes and gives, and the bound of what a crash can duplicate.
 */
import type { DeliveryConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { InboundSink } from '../inbound/types.ts';
import type { ConnectorSettings } from './connectors.ts';
import type { ReceiptInbox } from './receipt-inbox.ts';
import type {
  DeliveryLogger,
  DeliveryMethod,
  DeliveryObserver,
} from './types.ts';
import type { Waker } from './waker.ts';

/**
 * Messages submitted on the SMPP bind and not yet recorded, per window slot. It bounds what a
 * crash can duplicate (a message the SMSC took whose answer was not written yet is sent again
 * after the restart) at this × SMPP_WINDOW, while leaving room for the time a commit takes:
 * holding each of only `window` messages until its commit capped throughput at window / commit
 * latency (about 150/s on PostgreSQL here).
 */
export const UNRECORDED_PER_WINDOW_SLOT = 10;

export interface DeliveryOptions {
  config: DeliveryConfig;
  databaseUrl: string | undefined;
  db: Db;
  logger: DeliveryLogger;
  wake: Waker;
  /** Where this node's webhook routes hand receipts; attached to the connectors while running. */
  receipts?: ReceiptInbox;
  /**
   * The one inbound writer: inbound messages arriving over a connector's own connection (the
   * SMPP bind's deliver_sm) go there. Without it such a message is not acknowledged, and the
   * SMSC offers it again later.
   */
  inbound?: InboundSink;
  /** Told what this node's workers do (metrics). */
  observer?: DeliveryObserver;
  /** Tests: the simulator's delay before its DELIVERED receipt (default 200 ms). */
  simulatorDelayMs?: number;
  /** Tests: first retry delay in seconds (default 1). */
  retryDelaySeconds?: number;
  /** Tests: the SMPP connector's timers (see SmppConnectorOptions). */
  smpp?: ConnectorSettings['smpp'];
  /** Tests: OUTAGE_FAILOVER_MS. */
  outageFailoverMs?: number;
  /** Tests: the queue alarm's look when nothing is due (IDLE_CHECK_MS). */
  queueIdleCheckMs?: number;
}

/** What tests may shorten (never set in production). */
export type DeliveryTuning = Pick<
  DeliveryOptions,
  | 'simulatorDelayMs'
  | 'retryDelaySeconds'
  | 'smpp'
  | 'outageFailoverMs'
  | 'queueIdleCheckMs'
>;

export interface Delivery {
  /** FAILED and refunded, exactly once however many callers race (what the workers use). */
  failMessages(ids: string[]): Promise<string[]>;
  /** Queues the messages' delivery again, as a duplicated job would. */
  enqueue(ids: string[]): Promise<void>;
  /** Stops fetching, closes the connectors (pending submits come back to the queue), flushes. */
  stop(): Promise<void>;
  /** Delivery jobs waiting for a worker, on every node. */
  queueDepth(): Promise<number>;
  /** This node's connectors that hold a connection (the SMPP bind): whether each is up. */
  binds(): Partial<Record<DeliveryMethod, boolean>>;
  /**
   * The methods this node's configuration sends to the built-in simulator (no connector). A node
   * without workers delivers nothing itself: its configuration is meant to be its workers'.
   */
  readonly simulatedMethods: readonly DeliveryMethod[];
}
