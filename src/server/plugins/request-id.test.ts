import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isValidRequestId, requestIdFor } from './request-id.ts';

const UUID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function requestWith(id?: string | string[]): IncomingMessage {
  const request = new IncomingMessage(new Socket());
  if (id !== undefined) request.headers['x-request-id'] = id as string;
  return request;
}

describe('isValidRequestId', () => {
  it.each([
    'a',
    'f3b0c442-98fc-4c14-9a4f-1b8a6e0f9c2d',
    '01HZX3J5Q9W8E7R6T5Y4U3I2O1',
    'abc.DEF_123:xyz-9',
    'x'.repeat(128),
  ])('keeps %s', (id) => expect(isValidRequestId(id)).toBe(true));

  it.each([
    ['empty', ''],
    ['129 characters', 'x'.repeat(129)],
    ['a space', 'a b'],
    ['a line break', 'a\r\nSet-Cookie: x=1'],
    ['a quote', 'a"b'],
    ['a comma (two headers joined)', 'a,b'],
    ['a slash', 'a/b'],
    ['non-ASCII', 'idé'],
  ])('refuses one with %s', (_why, id) =>
    expect(isValidRequestId(id)).toBe(false),
  );

  it('refuses what is not a string', () => {
    expect(isValidRequestId(undefined)).toBe(false);
    expect(isValidRequestId(['a', 'b'])).toBe(false);
  });
});

describe('requestIdFor', () => {
  it('keeps a valid incoming X-Request-Id', () => {
    expect(requestIdFor(requestWith('edge-42:a.b_c'))).toBe('edge-42:a.b_c');
  });

  it('makes a new UUID for none or an invalid one, a different one each time', () => {
    const made = [
      requestIdFor(requestWith()),
      requestIdFor(requestWith('bad id')),
      requestIdFor(requestWith('y'.repeat(200))),
      requestIdFor(requestWith('')),
    ];
    for (const id of made) expect(id).toMatch(UUID);
    expect(new Set(made).size).toBe(made.length);
  });
});
