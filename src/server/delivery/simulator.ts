import { randomUUID } from 'node:crypto';
import { countSms } from '../../shared/sms.ts';
import type {
  Connector,
  DeliveryMethod,
  OutgoingSms,
  ReceiptHandler,
  SubmitOutcome,
} from './types.ts';

/**
 * The built-in simulator of a method without configuration: takes every message (one provider
 * id per part) and reports each part DELIVERED `delayMs` later, through the same receipt path
 * as a real provider. Messages it took are marked `simulated` in the message log.
 */
export function createSimulator(
  method: DeliveryMethod,
  delayMs = 200,
): Connector {
  let handler: ReceiptHandler | null = null;
  let closed = false;
  /** Receipts not reported yet: a closing simulator reports them at once, none is lost. */
  const pending = new Map<NodeJS.Timeout, () => Promise<void>>();
  const report = async (ids: string[]) => {
    for (const providerMessageId of ids) {
      await handler?.({ providerMessageId, state: 'DELIVERED', error: null });
    }
  };
  return {
    method,
    async submit(sms: OutgoingSms): Promise<SubmitOutcome> {
      if (closed) return { kind: 'retry', error: 'simulator closed' };
      const base = `sim-${randomUUID()}`;
      const { segments } = countSms(sms.text);
      const ids = Array.from(
        { length: segments },
        (_, i) => `${base}-${i + 1}`,
      );
      const send = () => report(ids).catch(() => undefined);
      const timer = setTimeout(() => {
        pending.delete(timer);
        void send();
      }, delayMs);
      pending.set(timer, send);
      return { kind: 'submitted', providerMessageIds: ids };
    },
    onReceipt(next) {
      handler = next;
    },
    async close() {
      closed = true;
      const sends = [...pending];
      pending.clear();
      for (const [timer] of sends) clearTimeout(timer);
      await Promise.all(sends.map(([, send]) => send()));
    },
  };
}
