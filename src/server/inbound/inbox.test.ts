import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/client.ts';
import { InboundInbox } from './inbox.ts';
import type { InboundPart } from './types.ts';

const part = (body: string, over: Partial<InboundPart> = {}): InboundPart => ({
  method: 'MELROSE_SMPP',
  providerMessageId: null,
  from: '447700900123',
  to: '447700900000',
  body,
  encoding: 'GSM-7',
  concat: null,
  ...over,
});

/**
 * A database that answers record_inbound as stored for every part of a batch, and refuses a
 * batch holding a body named `poison` (as PostgreSQL refuses a value it cannot store).
 */
function fakeDb() {
  const batches: string[][] = [];
  const db: Queryable = {
    async query<T>(_text: string, params?: unknown[]) {
      const bodies = params![4] as string[];
      batches.push(bodies);
      if (bodies.includes('poison')) throw new Error('invalid byte sequence');
      return bodies.map((_, i) => ({
        r_ord: i + 1,
        r_outcome: 'stored',
        r_message_id: `m${i}`,
        r_method: 'MELROSE_SMPP',
      })) as T[];
    },
    async exec() {},
  };
  return { db, batches };
}

describe('InboundInbox', () => {
  it('refuses a part that cannot be stored without writing it, logged, and resolves (acknowledge and drop)', async () => {
    const { db, batches } = fakeDb();
    const warnings: string[] = [];
    const inbox = new InboundInbox(db, {
      warn: (_d, message) => warnings.push(message),
    });
    const beyond = part('x', { concat: { reference: 1, total: 2, part: 3 } });
    await expect(inbox.take(beyond)).resolves.toBe('refused');
    await expect(inbox.receive(beyond)).resolves.toBeUndefined();
    expect(batches).toEqual([]);
    expect(warnings[0]).toMatch(/refused and dropped: part number/);
  });

  it('writes parts that arrive together in one batch; one the database refuses fails alone', async () => {
    const { db, batches } = fakeDb();
    const stored: number[] = [];
    const inbox = new InboundInbox(db);
    inbox.observe({
      stored: (_m, n) => stored.push(n),
      unrouted: () => undefined,
    });
    const bodies = ['a', 'b', 'poison', 'c', 'd'];
    const results = await Promise.allSettled(
      bodies.map((b) => inbox.take(part(b))),
    );
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(batches[0]).toEqual(bodies);
    expect(stored.reduce((s, n) => s + n, 0)).toBe(4);
    await inbox.close();
  });
});
