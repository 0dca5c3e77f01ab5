import { FairQueue } from './fair-queue.ts';

interface Waiter {
  wake(): void;
  /** Aborted: skipped when its turn comes. */
  gone: boolean;
}

/**
 * A counting semaphore: at most `limit` holders, the others wait in arrival order, or, when
 * callers name a lane (delivery: the message's client), one lane per name served in turn, so one
 * client's backlog does not hold back another's message (fair delivery). The one semaphore of
 * the server: KDF runs (auth/passwords.ts), requests to an HTTP provider and messages submitted
 * but not yet recorded (delivery).
 */
export class Semaphore {
  readonly #limit: number;
  #active = 0;
  readonly #waiters = new FairQueue<Waiter>();
  #waiting = 0;

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
    return this.#waiting;
  }

  /**
   * Resolves with a release function (calling it twice releases once) once a slot is free;
   * rejects if `signal` aborts first. Waiting, it takes its turn in `lane`.
   */
  acquire(signal?: AbortSignal, lane = ''): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const once = () => {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        this.#active -= 1;
        this.#wakeNext();
      };
    };
    if (this.#active < this.#limit) {
      this.#active += 1;
      return Promise.resolve(once());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          this.#active += 1;
          resolve(once());
        },
        gone: false,
      };
      const onAbort = () => {
        waiter.gone = true;
        this.#waiting -= 1;
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(lane, waiter);
      this.#waiting += 1;
    });
  }

  /** A slot came free: the next waiter still waiting takes it. */
  #wakeNext(): void {
    for (let next = this.#waiters.shift(); next; next = this.#waiters.shift()) {
      if (next.gone) continue;
      this.#waiting -= 1;
      next.wake();
      return;
    }
  }
}
