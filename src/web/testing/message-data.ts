import type {
  LoggedMessage,
  MessageDetail,
} from '../features/messages/message-log-model';
import { makeClient } from './test-data';

/** A message as the log lists it: delivered by the simulator unless told otherwise. */
export function makeMessage(
  overrides: Partial<LoggedMessage> = {},
): LoggedMessage {
  return {
    id: '33333333-3333-4333-8333-333333333333',
    clientId: makeClient().id,
    sender: 'Skyline',
    recipient: '447700900123',
    body: 'Your code is 1234',
    reference: 'login-code',
    state: 'DELIVERED',
    error: null,
    encoding: 'GSM-7',
    segments: 1,
    price: 0.05,
    pricePerSegment: 0.05,
    pricePrefix: null,
    currency: 'EUR',
    batchId: null,
    sendAt: null,
    dateCreated: '2026-03-04T10:20:30.000Z',
    dateUpdated: '2026-03-04T10:20:32.000Z',
    deliveryMethod: 'MELROSE_SMPP',
    simulated: true,
    ...overrides,
  };
}

/** `count` messages with distinct ids and recipients, newest first. */
export function makeMessages(count: number, from = 0): LoggedMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return makeMessage({
      id: `33333333-3333-4333-8333-${String(n).padStart(12, '0')}`,
      recipient: `4477009${String(n).padStart(5, '0')}`,
      dateCreated: new Date(Date.UTC(2026, 2, 4, 10, 0, 0) - n * 60_000)
        .toISOString()
        .replace('Z', '+00:00'),
    });
  });
}

export function makeMessageDetail(
  overrides: Partial<MessageDetail> = {},
): MessageDetail {
  return { ...makeMessage(), attempts: [], callbacks: [], ...overrides };
}

/** The list answer of `GET …/messages` for one page. */
export function messagePage(
  messages: LoggedMessage[],
  { total = messages.length, offset = 0 } = {},
) {
  return { total, count: messages.length, offset, messages };
}
