import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue.ts';

function drain<T>(queue: FairQueue<T>): T[] {
  const out: T[] = [];
  while (queue.length > 0) out.push(queue.shift()!);
  return out;
}

describe('FairQueue', () => {
  it('serves lanes in turn, one item a turn, first in first out within a lane', () => {
    const queue = new FairQueue<string>();
    for (let i = 1; i <= 4; i++) queue.push('a', `a${i}`);
    queue.push('b', 'b1');
    queue.push('c', 'c1');
    queue.push('c', 'c2');
    expect(queue.length).toBe(7);
    expect(drain(queue)).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3', 'a4']);
    expect(queue.shift()).toBeUndefined();
    expect(queue.peek()).toBeUndefined();
  });

  it("puts a newcomer's item after one turn of each lane, ahead of their backlogs", () => {
    const queue = new FairQueue<string>();
    for (let i = 1; i <= 100; i++) queue.push('backlog', `x${i}`);
    expect(queue.shift()).toBe('x1');
    expect(queue.shift()).toBe('x2');
    queue.push('newcomer', 'new');
    expect(queue.shift()).toBe('x3');
    expect(queue.shift()).toBe('new');
    expect(queue.length).toBe(97);
  });

  it('serves items put back to the front first, in their order; peek is what shift takes', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a1');
    queue.push('b', 'b1');
    queue.pushFront(['r1', 'r2']);
    queue.pushFront(['r0']);
    expect(queue.length).toBe(5);
    const taken: string[] = [];
    while (queue.length > 0) {
      const next = queue.peek();
      expect(queue.shift()).toBe(next);
      taken.push(next!);
    }
    expect(taken).toEqual(['r0', 'r1', 'r2', 'a1', 'b1']);
  });

  it('clear empties it and returns what it held', () => {
    const queue = new FairQueue<number>();
    queue.push('a', 1);
    queue.push('b', 2);
    queue.pushFront([0]);
    expect(queue.clear().sort()).toEqual([0, 1, 2]);
    expect(queue.length).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });
});
