import { describe, expect, it } from 'vitest';
import {
  BATCH_REFRESH_MS,
  batchRefreshMs,
  finalCount,
  isBatchFinal,
  progressParts,
  SCHEDULED_REFRESH_MS,
} from './batch-progress-model';

describe('batch progress', () => {
  it('parts by state in lifecycle order, with their share', () => {
    expect(
      progressParts({ states: { DELIVERED: 2, SUBMITTED: 1, FAILED: 1 } }),
    ).toEqual([
      { state: 'SUBMITTED', count: 1, percent: 25 },
      { state: 'DELIVERED', count: 2, percent: 50 },
      { state: 'FAILED', count: 1, percent: 25 },
    ]);
    expect(
      finalCount({ states: { DELIVERED: 2, SUBMITTED: 1, FAILED: 1 } }),
    ).toBe(3);
  });

  it('asks again every few seconds while messages move, slowly while only scheduled ones wait, never once all are final', () => {
    expect(batchRefreshMs({ states: { ACCEPTED: 1, DELIVERED: 1 } })).toBe(
      BATCH_REFRESH_MS,
    );
    expect(batchRefreshMs({ states: { SCHEDULED: 3 } })).toBe(
      SCHEDULED_REFRESH_MS,
    );
    expect(isBatchFinal({ states: { DELIVERED: 2, CANCELED: 1 } })).toBe(true);
    expect(batchRefreshMs({ states: { DELIVERED: 2, CANCELED: 1 } })).toBe(
      false,
    );
    expect(batchRefreshMs(undefined)).toBe(false);
  });
});
