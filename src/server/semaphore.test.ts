import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.ts';

describe('Semaphore', () => {
  it('lets `limit` holders in and the others in arrival order as slots free up', async () => {
    const gate = new Semaphore(2);
    const order: number[] = [];
    const first = await gate.acquire();
    const second = await gate.acquire();
    const waiting = [3, 4].map((n) =>
      gate.acquire().then((release) => {
        order.push(n);
        return release;
      }),
    );
    expect([gate.active, gate.waiting]).toEqual([2, 2]);
    first();
    first(); // a second call releases nothing more
    const third = await waiting[0]!;
    expect([gate.active, gate.waiting]).toEqual([2, 1]);
    second();
    await waiting[1];
    expect(order).toEqual([3, 4]);
    third();
    expect(gate.active).toBe(1);
  });

  it('a waiter whose signal aborts leaves the queue with its reason', async () => {
    const gate = new Semaphore(1);
    const held = await gate.acquire();
    const controller = new AbortController();
    const cut = gate.acquire(controller.signal);
    controller.abort(new Error('closing'));
    await expect(cut).rejects.toThrow('closing');
    expect(gate.waiting).toBe(0);
    held();
    expect(gate.active).toBe(0);
    await expect(gate.acquire(controller.signal)).rejects.toThrow('closing');
  });

  it('serves waiters lane by lane in turn: a lane with a backlog does not hold back another', async () => {
    const gate = new Semaphore(1);
    const held = await gate.acquire();
    const order: string[] = [];
    const wait = (lane: string, name: string) =>
      gate.acquire(undefined, lane).then((release) => {
        order.push(name);
        release();
      });
    const all = [
      wait('a', 'a1'),
      wait('a', 'a2'),
      wait('a', 'a3'),
      wait('b', 'b1'),
    ];
    // An aborted waiter is skipped when its turn comes.
    const controller = new AbortController();
    const cut = gate.acquire(controller.signal, 'c');
    controller.abort(new Error('closing'));
    await expect(cut).rejects.toThrow('closing');
    expect(gate.waiting).toBe(4);
    held();
    await Promise.all(all);
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect([gate.active, gate.waiting]).toEqual([0, 0]);
  });

  it('refuses a limit below one', () => {
    expect(() => new Semaphore(0)).toThrow(
      'concurrency must be an integer ≥ 1',
    );
  });
});
