/**
 * Wakes this node's delivery workers when a send was accepted here, so they fetch at once
 * instead of at their next poll. Many sends in one tick wake them once.
 */
export class Waker {
  #listener: (() => void) | null = null;
  #pending = false;
  #onSend: ((messages: number) => void) | null = null;

  /** Told of every accepted send, however many wake the workers once (metrics). */
  onSend(listener: ((messages: number) => void) | null): void {
    this.#onSend = listener;
  }

  /** One listener (a later call replaces it); null removes it. */
  listen(listener: (() => void) | null): void {
    this.#listener = listener;
  }

  /** `messages`: how many the send accepted (a batch accepts many at once). */
  wake(messages = 1): void {
    this.#onSend?.(messages);
    if (this.#pending || !this.#listener) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      this.#listener?.();
    });
  }
}
