import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/client.ts';
import { ThrottledLog } from './throttled-log.ts';

/** Records statements; an INSERT answers the next id, the look-up of a target finds none. */
function fakeDb() {
  const statements: { text: string; params: unknown[] }[] = [];
  let nextId = 0;
  const db: Queryable = {
    async query<T>(text: string, params: unknown[] = []): Promise<T[]> {
      statements.push({ text, params });
      if (text.includes('INSERT INTO audit_events'))
        return [{ id: String((nextId += 1)) }] as T[];
      return [];
    },
    async exec() {},
  };
  const inserts = () =>
    statements.filter((s) => s.text.includes('INSERT INTO audit_events'));
  const updates = () =>
    statements.filter((s) => s.text.includes('UPDATE audit_events'));
  return { db, inserts, updates };
}

const errors: unknown[] = [];
const onError = (error: unknown) => void errors.push(error);
/** Lets the log's inserts return. */
const settle = () => new Promise((r) => setTimeout(r, 0));
const now = 1_000_000;

describe('ThrottledLog', () => {
  it('records one event per address and lock, whatever the names, and writes the count once', async () => {
    const { db, inserts, updates } = fakeDb();
    const log = new ThrottledLog(db, onError, 60_000);
    for (let i = 0; i < 500; i++) {
      log.refused(
        {
          account: `${i}-${'x'.repeat(200)}`,
          ip: '192.0.2.1',
          retryAfterSeconds: 30,
        },
        now + i,
      );
    }
    await settle();
    expect(inserts()).toHaveLength(1);
    const after = JSON.parse(String(inserts()[0]!.params[6]));
    expect(after).toEqual({
      email: `0-${'x'.repeat(98)}`,
      retryAfterSeconds: 30,
      refused: 1,
      refusedForOthers: 0,
    });
    expect(updates()).toHaveLength(0);
    await log.flush(now + 1_000);
    expect(updates()).toHaveLength(1);
    expect(updates()[0]!.params).toEqual([['1'], [500], [499]]);
    // Nothing moved: nothing written.
    await log.flush(now + 2_000);
    expect(updates()).toHaveLength(1);
    await log.close();
    expect(errors).toEqual([]);
  });

  it('keeps a lock open while refusals continue, and opens a new event after a quiet minute', async () => {
    const { db, inserts } = fakeDb();
    const log = new ThrottledLog(db, onError, 60_000);
    const refuse = (at: number, ip = '192.0.2.1') =>
      log.refused({ account: 'ada', ip, retryAfterSeconds: 1 }, at);
    for (let t = 0; t < 5 * 60_000; t += 30_000) refuse(now + t);
    refuse(now, '192.0.2.2');
    await settle();
    expect(inserts()).toHaveLength(2);
    refuse(now + 5 * 60_000 + 30_001);
    await settle();
    expect(inserts()).toHaveLength(3);
    await log.close();
  });

  it('writes the last counts when closed', async () => {
    const { db, updates } = fakeDb();
    const log = new ThrottledLog(db, onError, 60_000);
    log.refused({ account: 'ada', ip: '192.0.2.1', retryAfterSeconds: 5 }, now);
    log.refused({ account: 'bob', ip: '192.0.2.1', retryAfterSeconds: 5 }, now);
    await log.close();
    expect(updates().map((u) => u.params)).toEqual([[['1'], [2], [1]]]);
  });
});
