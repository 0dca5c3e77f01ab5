/**
 * A queue of lanes served in turn (round robin, one item a turn), for what a node holds in memory
 * in front of a provider (the SMPP bind's submits waiting for its window and rate cap, callers
 * waiting for a Semaphore's slot): the jobs a worker fetched are all in memory at once, so a
 * client's backlog fetched a moment earlier would otherwise sit ahead of another client's new
 * message (CONTRACT "Fair delivery"). Within a lane, first in first out; items put back to the
 * front (submits to send again after a rebind) go before every lane, in their order.
 */
export class FairQueue<T> {
  /** Put back to the front: served before the lanes. */
  #front: T[] = [];
  /** Lanes with items, in the order they are served next (a Map keeps insertion order). */
  readonly #lanes = new Map<string, T[]>();
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /** Adds `item` at the end of `lane`. */
  push(lane: string, item: T): void {
    const queue = this.#lanes.get(lane);
    if (queue) queue.push(item);
    else this.#lanes.set(lane, [item]);
    this.#length += 1;
  }

  /** Puts `items` back before everything else, in their order. */
  pushFront(items: readonly T[]): void {
    this.#front = [...items, ...this.#front];
    this.#length += items.length;
  }

  /** The item `shift` would take, or undefined. */
  peek(): T | undefined {
    if (this.#front.length > 0) return this.#front[0];
    for (const queue of this.#lanes.values()) return queue[0];
    return undefined;
  }

  /** Takes the next item: the front's, else the next lane's first, and that lane's turn ends. */
  shift(): T | undefined {
    if (this.#front.length > 0) {
      this.#length -= 1;
      return this.#front.shift();
    }
    for (const [lane, queue] of this.#lanes) {
      const item = queue.shift();
      this.#lanes.delete(lane);
      // Its next item waits for every other lane's turn.
      if (queue.length > 0) this.#lanes.set(lane, queue);
      this.#length -= 1;
      return item;
    }
    return undefined;
  }

  /** Empties it; returns what it held. */
  clear(): T[] {
    const all = [...this.#front, ...[...this.#lanes.values()].flat()];
    this.#front = [];
    this.#lanes.clear();
    this.#length = 0;
    return all;
  }
}
