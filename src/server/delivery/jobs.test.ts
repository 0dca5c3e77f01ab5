import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { nothingWithin } from '../../../tests/support/eventually.ts';
import type { Db } from '../db/client.ts';
import {
  DELIVERY_BATCH_SIZE,
  deliveryBatchSize,
  highestRound,
  servedRounds,
} from './jobs.ts';

/** A database that records the rounds advance_delivery_round is given. */
function recordingDb() {
  const rounds: number[] = [];
  const db = {
    query: (sql: string, params: unknown[]) => {
      expect(sql).toContain('advance_delivery_round');
      rounds.push(params[0] as number);
      return Promise.resolve([]);
    },
  } as unknown as Db;
  return { db, rounds };
}

describe('highestRound', () => {
  it('is the highest round among ranked jobs (priority minus the round), null without one', () => {
    expect(
      highestRound([{ priority: -3 }, { priority: -7 }, { priority: 1 }]),
    ).toBe(7);
    expect(highestRound([{ priority: 1 }, { priority: 0 }])).toBeNull();
    expect(highestRound([])).toBeNull();
  });
});

describe('deliveryBatchSize', () => {
  it('is about a second of a capped SMPP bind, at least 10, at most the usual batch', () => {
    expect(deliveryBatchSize(null)).toBe(DELIVERY_BATCH_SIZE);
    expect(deliveryBatchSize(undefined)).toBe(DELIVERY_BATCH_SIZE);
    expect(deliveryBatchSize(50)).toBe(50);
    expect(deliveryBatchSize(2.4)).toBe(10);
    expect(deliveryBatchSize(1000)).toBe(DELIVERY_BATCH_SIZE);
  });
});

describe('servedRounds', () => {
  it('writes the first round at once, then the highest noted at most once a period', async () => {
    const { db, rounds } = recordingDb();
    const note = servedRounds(db, pino({ level: 'silent' }), 200);
    note(5);
    await expect.poll(() => rounds).toEqual([5]);
    // Within the period: one write, of the highest; a lower or equal round writes nothing.
    note(6);
    note(9);
    note(8);
    note(5);
    expect(rounds).toEqual([5]);
    await expect.poll(() => rounds, { timeout: 2000 }).toEqual([5, 9]);
    // Nothing higher: nothing more is written (a period and a half is when it would be).
    note(9);
    await nothingWithin(300, () => expect(rounds).toEqual([5, 9]));
  });
});
