/**
 * The one writer of this node's delivery outcomes and receipts, group-committed: what arrives
 * while a write is running goes together in the next one (one statement each), which is what
 * keeps hundreds of messages per second within reach of the embedded database.
 *
 * record_delivery is one transaction, so a failed batch can be bisected: an item the database
 * refuses fails only itself, instead of losing every outcome with it (their jobs would run
 * again: duplicates). A deferral carries its attempt (if any) so that both are written, or
 * neither.
 */
import type { Db } from '../db/client.ts';
import { GroupCommit } from '../db/group-commit.ts';
import type { InboundSink } from '../inbound/types.ts';
import type { ConnectorEntry } from './connectors.ts';
import type { ReceiptInbox } from './receipt-inbox.ts';
import * as repo from './repo.ts';
import type {
  DeliveryLogger,
  DeliveryMethod,
  DeliveryObserver,
  Receipt,
} from './types.ts';

export type Written =
  | { outcome: repo.Outcome }
  | { receipt: repo.ReceiptRow }
  | { defer: repo.Deferral; attempt: repo.Outcome | null };

export type DeliveryWriter = GroupCommit<Written>;

/**
 * Messages reaching a final state (FAILED included) are counted by the write that moved them,
 * once each: not per receipt, which a message of several parts gets several of.
 */
export function startWriter(
  db: Db,
  observer: DeliveryObserver,
  logger: DeliveryLogger,
): DeliveryWriter {
  return new GroupCommit<Written>(
    async (items) => {
      const batch = [
        items.flatMap((i) =>
          'outcome' in i
            ? [i.outcome]
            : 'attempt' in i && i.attempt
              ? [i.attempt]
              : [],
        ),
        items.flatMap((i) => ('receipt' in i ? [i.receipt] : [])),
        items.flatMap((i) => ('defer' in i ? [i.defer] : [])),
      ] as const;
      const at = await repo.recordDelivery(db, ...batch);
      // Counted after the commit, without holding up the writer's next batch; a failed count
      // (the database gone meanwhile) loses a count, never a write.
      if (observer.messages) {
        repo.movedToFinal(db, at, batch[0], batch[1]).then(
          (moved) => {
            for (const { state, count } of moved) {
              observer.messages?.(state, count);
            }
          },
          (err: unknown) =>
            logger.warn({ err }, 'counting the messages moved failed'),
        );
      }
    },
    { max: 1000, isolateFailures: true },
  );
}

/**
 * Receipts go to the writer: the connectors' own (the SMPP bind's deliver_sm, the simulator's)
 * and the webhooks' (already checked and cleaned by the ReceiptInbox). A method simulated on
 * this node still records what its webhook got (another node may send on it). The result
 * detaches the inbox (the node is stopping).
 */
export function routeReceipts(
  writer: DeliveryWriter,
  connectors: ReadonlyMap<DeliveryMethod, ConnectorEntry>,
  inbox: ReceiptInbox | undefined,
): () => void {
  const recordReceipt = async (method: DeliveryMethod, receipt: Receipt) => {
    await writer.push({ receipt: { method, ...receipt } });
  };
  for (const [method, { connector }] of connectors) {
    connector.onReceipt?.((receipt: Receipt) => recordReceipt(method, receipt));
  }
  inbox?.attach(recordReceipt);
  return () => inbox?.attach(null);
}

/**
 * Inbound messages the connectors receive themselves (the SMPP bind's deliver_sm) go to the one
 * inbound writer, which stores them before the connector acknowledges them. No sink: no
 * handler, and the SMSC keeps them.
 */
export function routeInbound(
  connectors: ReadonlyMap<DeliveryMethod, ConnectorEntry>,
  inbound: InboundSink | undefined,
): void {
  if (!inbound) return;
  for (const { connector } of connectors.values()) {
    connector.onInbound?.((part) => inbound.receive(part));
  }
}
