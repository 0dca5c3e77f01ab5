/**
 * A counting semaphore: at most `limit` holders, the others wait in arrival order. The one
 * semaphore of the server: KDF runs (auth/passwords.ts), requests to an HTTP provider and
 * messages submitted but not yet recorded (delivery).
 */
export class Semaphore {
  readonly #limit: number;
  #active = 0;
  #waiters: (() => void)[] = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new Error('concurrency must be an integer ≥ 1');
    }
    this.#limit = limit;
  }

  get limit(): number {
    return this.#limit;
  }

  /** Holders now. */
  get active(): number {
    return this.#active;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /**
   * Resolves with a release function (calling it twice releases once) once a slot is free;
   * rejects if `signal` aborts first.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const once = () => {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        this.#active -= 1;
        this.#waiters.shift()?.();
      };
    };
    if (this.#active < this.#limit) {
      this.#active += 1;
      return Promise.resolve(once());
    }
    return new Promise((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        this.#active += 1;
        resolve(once());
      };
      const onAbort = () => {
        this.#waiters = this.#waiters.filter((w) => w !== wake);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(wake);
    });
  }
}
