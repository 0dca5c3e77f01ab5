/**
 * Group commit: calls that arrive while a write is running are written together by the next
 * one, in one statement, so many concurrent small writes cost a few round trips and commits
 * instead of one each. The first call of a quiet period waits one turn of the event loop for
 * company; under load a batch is whatever queued during the previous write.
 */
export class GroupCommit<T, R = void> {
  #queue: {
    item: T;
    resolve(result: R): void;
    reject(error: unknown): void;
  }[] = [];
  #running: Promise<void> | null = null;
  readonly #write: (items: T[]) => Promise<R[] | void>;
  readonly #max: number;

  /** `write` returns one result per item, in order (or nothing when R is void). */
  constructor(write: (items: T[]) => Promise<R[] | void>, max = 500) {
    this.#write = write;
    this.#max = max;
  }

  push(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#running ??= this.#run();
    });
  }

  async #run(): Promise<void> {
    await new Promise((r) => setImmediate(r));
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#max);
      try {
        const results = await this.#write(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve((results ?? [])[i] as R));
      } catch (error) {
        for (const b of batch) b.reject(error);
      }
    }
    this.#running = null;
  }

  /** Resolves once nothing is queued or being written. */
  async drain(): Promise<void> {
    while (this.#running) await this.#running;
  }
}
