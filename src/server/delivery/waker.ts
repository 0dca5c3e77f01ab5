/**
 * Wakes this node's delivery workers when a send was accepted here, so they fetch at once
 * instead of at their next poll. Many sends in one tick wake them once.
 */
export class Waker {
  #listener: (() => void) | null = null;
  #pending = false;
  #onSend: (() => void) | null = null;

  /** Told of every accepted send, however many wake the workers once (metrics). */
  onSend(listener: (() => void) | null): void {
    this.#onSend = listener;
  }

  /** One listener (a later call replaces it); null removes it. */
  listen(listener: (() => void) | null): void {
    this.#listener = listener;
  }

  wake(): void {
    this.#onSend?.();
    if (this.#pending || !this.#listener) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      this.#listener?.();
    });
  }
}
