import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.ts';

/** A write that fails, as one transaction, whenever its batch holds a "bad" item. */
function fakeStore() {
  const stored: string[] = [];
  const writes: number[] = [];
  const write = async (items: string[]) => {
    writes.push(items.length);
    await new Promise((r) => setImmediate(r));
    if (items.some((i) => i.startsWith('bad'))) {
      throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
    }
    stored.push(...items);
    return items.map((i) => i.toUpperCase());
  };
  return { stored, writes, write };
}

describe('GroupCommit', () => {
  it('writes concurrent calls together and answers each with its own result', async () => {
    const store = fakeStore();
    const writer = new GroupCommit(store.write, 100);
    const results = await Promise.all(
      ['a', 'b', 'c'].map((i) => writer.push(i)),
    );
    expect(results).toEqual(['A', 'B', 'C']);
    expect(store.writes).toEqual([3]);
  });

  it('by default fails every call of a failed batch', async () => {
    const store = fakeStore();
    const writer = new GroupCommit(store.write, 100);
    const settled = await Promise.allSettled(
      ['a', 'bad', 'c'].map((i) => writer.push(i)),
    );
    expect(settled.map((s) => s.status)).toEqual([
      'rejected',
      'rejected',
      'rejected',
    ]);
  });

  it('with isolateFailures, only the failing items of a batch reject', async () => {
    const store = fakeStore();
    const writer = new GroupCommit(store.write, {
      max: 1000,
      isolateFailures: true,
    });
    const items = Array.from({ length: 500 }, (_, i) =>
      i === 137 || i === 401 ? `bad-${i}` : `ok-${i}`,
    );
    const settled = await Promise.allSettled(items.map((i) => writer.push(i)));
    const rejected = items.filter((_, i) => settled[i]!.status === 'rejected');
    expect(rejected).toEqual(['bad-137', 'bad-401']);
    expect((settled[401] as PromiseRejectedResult).reason.message).toMatch(
      /0x00/,
    );
    expect(settled[0]).toEqual({ status: 'fulfilled', value: 'OK-0' });
    // Every good item stored exactly once, none lost.
    expect([...store.stored].sort()).toEqual(
      items.filter((i) => i.startsWith('ok')).sort(),
    );
    // Bisection, not one write per item: about 2 × log2(500) writes per bad item.
    expect(store.writes.length).toBeLessThan(45);
    await writer.drain();
  });

  it('keeps writing what queued meanwhile after an isolated failure', async () => {
    const store = fakeStore();
    const writer = new GroupCommit(store.write, {
      max: 2,
      isolateFailures: true,
    });
    const settled = await Promise.allSettled(
      ['bad', 'a', 'b', 'c', 'd'].map((i) => writer.push(i)),
    );
    expect(settled.map((s) => s.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(store.stored.sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('with inFlight 2, writes the next batch while the last one runs, never more at once', async () => {
    let running = 0;
    let most = 0;
    const batches: string[][] = [];
    const gates: (() => void)[] = [];
    const writer = new GroupCommit(
      async (items: string[]) => {
        batches.push(items);
        most = Math.max(most, ++running);
        await new Promise<void>((r) => gates.push(r));
        running--;
        return items.map((i) => i.toUpperCase());
      },
      { max: 100, inFlight: 2 },
    );
    const first = writer.push('a');
    await expect.poll(() => batches.length).toBe(1);
    // Queued while 'a' is written: a second writer takes them at once.
    const second = ['b', 'c'].map((i) => writer.push(i));
    await expect.poll(() => batches.length).toBe(2);
    // A third batch waits for a writer to be free.
    const third = writer.push('d');
    await new Promise((r) => setTimeout(r, 20));
    expect(batches).toEqual([['a'], ['b', 'c']]);
    gates.shift()!();
    await expect.poll(() => batches.length).toBe(3);
    while (gates.length > 0 || batches.length < 3) {
      gates.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all([first, ...second, third])).toEqual([
      'A',
      'B',
      'C',
      'D',
    ]);
    expect(batches).toEqual([['a'], ['b', 'c'], ['d']]);
    expect(most).toBe(2);
    await writer.drain();
  });

  it('by default writes one batch at a time', async () => {
    let running = 0;
    let most = 0;
    const writer = new GroupCommit(async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
    }, 1);
    await Promise.all(['a', 'b', 'c', 'd'].map((i) => writer.push(i)));
    expect(most).toBe(1);
  });

  it('writes a call pushed just as the last writer saw an empty queue', async () => {
    // Pushed a few microtasks after the previous call was answered, one of them the turn in
    // which its writer ends: nobody may be left waiting.
    for (let hops = 0; hops < 8; hops++) {
      const writer = new GroupCommit(async () => undefined, 10);
      await writer.push('a');
      for (let i = 0; i < hops; i++) await Promise.resolve();
      const late = writer.push('b');
      await expect(
        Promise.race([
          late.then(() => 'written'),
          new Promise((r) => setTimeout(() => r(`stuck after ${hops}`), 100)),
        ]),
      ).resolves.toBe('written');
    }
  });
});
