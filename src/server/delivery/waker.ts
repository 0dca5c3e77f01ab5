/** The states the send path moves messages to (sms_messages_total counts them per node). */
export type SendPathState = 'ACCEPTED' | 'SCHEDULED' | 'CANCELED';

/**
 * Wakes this node's delivery workers when a send was accepted here, so they fetch at once
 * instead of at their next poll. Many sends in one tick wake them once.
 */
export class Waker {
  #listener: (() => void) | null = null;
  #pending = false;
  #onSend: ((state: SendPathState) => void) | null = null;

  /**
   * Told of every message the send path moved to a state (metrics): each accepted send, however
   * many wake the workers once, and each scheduled or cancelled one (see `count`).
   */
  onSend(listener: ((state: SendPathState) => void) | null): void {
    this.#onSend = listener;
  }

  /** A send scheduled, or a scheduled one cancelled: counted, nothing to deliver now. */
  count(state: 'SCHEDULED' | 'CANCELED'): void {
    this.#onSend?.(state);
  }

  /** One listener (a later call replaces it); null removes it. */
  listen(listener: (() => void) | null): void {
    this.#listener = listener;
  }

  wake(): void {
    this.#onSend?.('ACCEPTED');
    if (this.#pending || !this.#listener) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      this.#listener?.();
    });
  }
}
