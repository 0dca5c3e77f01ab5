/**
 * Group commit: calls that arrive while a write is running are written together by the next
 * one, in one statement, so many concurrent small writes cost a few round trips and commits
 * instead of one each. The first call of a quiet period waits one turn of the event loop for
 * company; under load a batch is whatever queued during the previous write.
 *
 * By default a failed write fails every call of its batch. With `isolateFailures`, a failed
 * batch is written again in halves, down to single items, so only the items that fail on their
 * own reject: one value the database cannot store (a NUL, a lone surrogate, a key too long for
 * its index) no longer loses the rest of the batch. Only for a `write` that is all or nothing
 * (one statement or one transaction): a half-applied batch written again would apply twice.
 * A failure that is nobody's item (database down) then costs up to 2n − 1 failing writes.
 *
 * With `inFlight` > 1, the next batch is written while the last one is still running (on another
 * connection), so a batch's commit (its WAL flush on a durable database) overlaps the next
 * batch's work instead of adding to it. Batches still start in arrival order; the writes must
 * order themselves where they touch the same rows (send_sms_batch locks the balances it may
 * debit first, in one order).
 */
export interface GroupCommitOptions {
  /** Items per write (default 500). */
  max?: number;
  /** Bisect a failed batch so that only the failing items reject (default false). */
  isolateFailures?: boolean;
  /** Batches written at once (default 1). */
  inFlight?: number;
}

interface Queued<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export class GroupCommit<T, R = void> {
  #queue: Queued<T, R>[] = [];
  /** Writers taking batches until none is queued: at most `inFlight`. */
  #active = 0;
  /** Their promises, for `drain`. */
  #writers = new Set<Promise<void>>();
  readonly #write: (items: T[]) => Promise<R[] | void>;
  readonly #max: number;
  readonly #isolate: boolean;
  readonly #inFlight: number;

  /**
   * `write` returns one result per item, in order (or nothing when R is void). The second
   * argument is the batch size (a number, as before) or the options.
   */
  constructor(
    write: (items: T[]) => Promise<R[] | void>,
    options: number | GroupCommitOptions = 500,
  ) {
    this.#write = write;
    const o = typeof options === 'number' ? { max: options } : options;
    this.#max = o.max ?? 500;
    this.#isolate = o.isolateFailures ?? false;
    this.#inFlight = o.inFlight ?? 1;
  }

  push(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      // A second writer starts only for a queue that builds up while a batch is written.
      if (
        this.#active === 0 ||
        (this.#active < this.#inFlight && this.#queue.length === 1)
      ) {
        this.#active++;
        const writer = this.#run();
        this.#writers.add(writer);
        void writer.then(() => this.#writers.delete(writer));
      }
    });
  }

  async #run(): Promise<void> {
    try {
      await new Promise((r) => setImmediate(r));
      while (this.#queue.length > 0) {
        await this.#writeBatch(this.#queue.splice(0, this.#max));
      }
    } finally {
      // In the same turn as the empty queue was seen: a call pushed after it starts a writer.
      this.#active--;
    }
  }

  async #writeBatch(batch: Queued<T, R>[]): Promise<void> {
    try {
      const results = await this.#write(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve((results ?? [])[i] as R));
    } catch (error) {
      if (!this.#isolate || batch.length === 1) {
        for (const b of batch) b.reject(error);
        return;
      }
      // Halves rather than one by one: a few bad items among many cost O(bad × log n) writes.
      const half = Math.ceil(batch.length / 2);
      await this.#writeBatch(batch.slice(0, half));
      await this.#writeBatch(batch.slice(half));
    }
  }

  /** Resolves once nothing is queued or being written. */
  async drain(): Promise<void> {
    while (this.#writers.size > 0) await Promise.all(this.#writers);
  }
}
