import { describe, expect, it } from 'vitest';
import type { MessageCallback } from '../../../shared/schemas/messages';
import { groupCallbacks } from './callback-events';

function attempt(
  state: string,
  n: number,
  dateCreated: string,
  answer: Partial<MessageCallback> = {},
): MessageCallback {
  return {
    state,
    attempt: n,
    status: null,
    error: 'receiver unreachable: ECONNREFUSED connect ECONNREFUSED',
    dateCreated,
    ...answer,
  };
}

describe('groupCallbacks', () => {
  it('groups tries by event in the order the events came, the last try deciding each', () => {
    const events = groupCallbacks([
      attempt('SUBMITTED', 1, '2026-03-04T10:00:00.000Z'),
      attempt('DELIVERED', 1, '2026-03-04T10:00:01.000Z'),
      attempt('SUBMITTED', 2, '2026-03-04T10:00:15.000Z', {
        status: 204,
        error: null,
      }),
      attempt('DELIVERED', 2, '2026-03-04T10:00:16.000Z'),
    ]);
    expect(events.map((e) => [e.state, e.tries.length, e.outcome])).toEqual([
      ['SUBMITTED', 2, 'received'],
      ['DELIVERED', 2, 'retrying'],
    ]);
    expect(events[0]!.nextTryAt).toBeNull();
    // The second retry comes 60 s after the second try; 12 tries in all.
    expect(events[1]!.nextTryAt?.toISOString()).toBe(
      '2026-03-04T10:01:16.000Z',
    );
    expect(events[1]!.triesLeft).toBe(10);
  });

  it('gives an event up after the last try of the schedule', () => {
    const [event] = groupCallbacks([
      attempt('DELIVERED', 11, '2026-03-05T10:00:00.000Z'),
      attempt('DELIVERED', 12, '2026-03-05T16:00:00.000Z', { status: 500 }),
    ]);
    expect(event!.outcome).toBe('given-up');
    expect(event!.nextTryAt).toBeNull();
    expect(event!.triesLeft).toBe(0);
  });

  it('starts a new event when the same state is sent again from its first try', () => {
    const events = groupCallbacks([
      attempt('DELIVERED', 1, '2026-03-04T10:00:00.000Z'),
      attempt('DELIVERED', 1, '2026-03-04T11:00:00.000Z'),
    ]);
    expect(events).toHaveLength(2);
  });
});
