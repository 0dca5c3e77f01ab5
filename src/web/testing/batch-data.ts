import type { Batch } from '../../shared/schemas/campaigns';

export const testBatchId = '44444444-4444-4444-8444-444444444444';

/** A batch as GET …/batches/{id} answers it: three messages accepted unless told otherwise. */
export function makeBatch(overrides: Partial<Batch> = {}): Batch {
  return {
    id: testBatchId,
    total: 3,
    amount: 0.22,
    body: 'Hello',
    sender: 'Skyline',
    sendAt: null,
    dateCreated: '2026-11-26T10:00:00.000Z',
    states: { ACCEPTED: 3 },
    ...overrides,
  };
}
