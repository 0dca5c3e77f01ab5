import { describe, expect, it } from 'vitest';
import type { MessageDetail } from '../../../shared/schemas/messages';
import { CALLBACK_SETTLE_MS, isLive } from './message-log-model';

const updated = '2026-03-04T10:00:00.000Z';
const at = (ms: number) => Date.parse(updated) + ms;

function message(
  state: MessageDetail['state'],
  callbacks: MessageDetail['callbacks'] = [],
): MessageDetail {
  return { state, dateUpdated: updated, callbacks } as MessageDetail;
}

describe('isLive: when the message panel keeps refreshing', () => {
  it('while the message is in flight', () => {
    expect(isLive(message('SUBMITTED'), at(3_600_000))).toBe(true);
  });

  it('for a while after a final state, when its status callback may not be tried yet', () => {
    expect(isLive(message('DELIVERED'), at(1_000))).toBe(true);
    expect(isLive(message('DELIVERED'), at(CALLBACK_SETTLE_MS))).toBe(false);
  });

  it('while a status callback event is being retried, then no more', () => {
    const failed = {
      state: 'DELIVERED',
      attempt: 1,
      status: 500,
      error: 'receiver answered HTTP 500',
      dateCreated: updated,
    };
    expect(isLive(message('DELIVERED', [failed]), at(3_600_000))).toBe(true);
    const received = { ...failed, attempt: 2, status: 204, error: null };
    expect(
      isLive(message('DELIVERED', [failed, received]), at(3_600_000)),
    ).toBe(false);
  });
});
