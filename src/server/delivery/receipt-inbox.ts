import type { Queryable } from '../db/client.ts';
import { storableReceipt } from './provider-text.ts';
import * as repo from './repo.ts';
import type { DeliveryMethod, Receipt } from './types.ts';

type Target = (method: DeliveryMethod, receipt: Receipt) => Promise<void>;

/**
 * Where the webhook routes hand receipts of the HTTP providers. While this node's delivery
 * workers run, to their connector (the same group-committed path as the SMPP bind's receipts);
 * on a node that only accepts (DELIVERY_WORKERS=0), or while stopping, straight to the same SQL
 * function. Either way a receipt for an id no submit has claimed yet waits in message_parts,
 * and a final state is never moved. Resolves once the receipt is stored.
 */
export class ReceiptInbox {
  readonly #db: Queryable;
  #target: Target | null = null;

  constructor(db: Queryable) {
    this.#db = db;
  }

  attach(target: Target | null): void {
    this.#target = target;
  }

  async deliver(method: DeliveryMethod, raw: Receipt): Promise<void> {
    // What the webhook got, as we can store it (a NUL, a lone surrogate, an id too long to index).
    const receipt = storableReceipt(raw);
    if (this.#target) return this.#target(method, receipt);
    await repo.recordDelivery(this.#db, [], [{ method, ...receipt }]);
  }
}
