/** The states the send path moves messages to (sms_messages_total counts them per node). */
export type SendPathState = 'ACCEPTED' | 'SCHEDULED' | 'CANCELED';

/**
 * Wakes this node's delivery workers when a send was accepted here, so they fetch at once
 * instead of at their next poll. Many sends in one tick wake them once.
 */
export class Waker {
  #listener: (() => void) | null = null;
  #pending = false;
  #onSend: ((state: SendPathState, messages: number) => void) | null = null;

  /**
   * Told of every message the send path moved to a state (metrics): each accepted send, however
   * many wake the workers once, and each scheduled or cancelled one (see `count`); a batch's
   * messages at once.
   */
  onSend(
    listener: ((state: SendPathState, messages: number) => void) | null,
  ): void {
    this.#onSend = listener;
  }

  /** A send scheduled, or a scheduled one cancelled: counted, nothing to deliver now. */
  count(state: 'SCHEDULED' | 'CANCELED', messages = 1): void {
    this.#onSend?.(state, messages);
  }

  /** One listener (a later call replaces it); null removes it. */
  listen(listener: (() => void) | null): void {
    this.#listener = listener;
  }

  /** `messages`: how many the send accepted (a batch accepts many at once). */
  wake(messages = 1): void {
    this.#onSend?.('ACCEPTED', messages);
    if (this.#pending || !this.#listener) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      this.#listener?.();
    });
  }
}
