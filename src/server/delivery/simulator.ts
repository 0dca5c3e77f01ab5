import { randomUUID } from 'node:crypto';
import { countSms } from '../../shared/sms.ts';
import type {
  ReceivingConnector,
  DeliveryMethod,
  OutgoingSms,
  ReceiptHandler,
  SubmitOutcome,
} from './types.ts';

/**
 * The built-in simulator of a method without configuration: takes every message (one provider
 * id per part) and reports each part DELIVERED `delayMs` later, through the same receipt path
 * as a real provider, and again later when it could not be recorded (as an SMSC redelivers).
 * Messages it took are marked `simulated` in the message log.
 */
export function createSimulator(
  method: DeliveryMethod,
  delayMs = 200,
): ReceivingConnector {
  let handler: ReceiptHandler | null = null;
  let closed = false;
  /** Receipts not reported yet: a closing simulator reports them at once, none is lost. */
  const pending = new Map<NodeJS.Timeout, () => Promise<void>>();
  /** Reports `ids` in order; answers those not recorded (the database was away). */
  const report = async (ids: string[]): Promise<string[]> => {
    for (const [i, providerMessageId] of ids.entries()) {
      try {
        await handler?.({ providerMessageId, state: 'DELIVERED', error: null });
      } catch {
        return ids.slice(i);
      }
    }
    return [];
  };
  // As an SMSC redelivers a receipt that was not acknowledged, a receipt we could not record
  // is offered again, a little later each time, until it is (or the simulator closes).
  const schedule = (ids: string[], afterMs: number) => {
    const send = async () => {
      const unrecorded = await report(ids);
      if (unrecorded.length > 0 && !closed) {
        schedule(unrecorded, Math.min(Math.max(afterMs * 2, 500), 5_000));
      }
    };
    const timer = setTimeout(() => {
      pending.delete(timer);
      void send();
    }, afterMs);
    pending.set(timer, send);
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
      schedule(ids, delayMs);
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
