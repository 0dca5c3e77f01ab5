import { describe, expect, it } from 'vitest';
import { MAX_INBOUND_PART_TEXT, storableInbound } from './storable.ts';
import type { InboundPart } from './types.ts';
import { parseGatewayInbound, parseVonageInbound } from './webhook-fields.ts';

const part = (over: Partial<InboundPart> = {}): InboundPart => ({
  method: 'MELROSE_SMPP',
  providerMessageId: null,
  from: '447700900123',
  to: '447700900000',
  body: 'Hello',
  encoding: 'GSM-7',
  concat: null,
  ...over,
});

const problemOf = (over: Partial<InboundPart>) => {
  const result = storableInbound(part(over));
  return 'problem' in result ? result.problem : null;
};

describe('storableInbound', () => {
  it('keeps a good part as it is', () => {
    expect(storableInbound(part())).toEqual({ part: part() });
  });

  it('drops a leading + and spaces of the numbers; keeps an alphanumeric sender', () => {
    const stored = storableInbound(
      part({ from: ' +44 7700 900123 ', to: '+447700900000' }),
    );
    expect(stored).toEqual({ part: part() });
    expect(storableInbound(part({ from: 'MyBank' }))).toEqual({
      part: part({ from: 'MyBank' }),
    });
  });

  it('cleans what PostgreSQL cannot store: a NUL, a lone surrogate, control characters', () => {
    const stored = storableInbound(
      part({ body: 'a\u0000b\ud800c\u0007\nd', providerMessageId: 'id\u0000' }),
    );
    expect(stored).toEqual({
      part: part({ body: 'ab\ufffdc\nd', providerMessageId: 'id' }),
    });
    // An id of nothing but a control character is no id.
    expect(storableInbound(part({ providerMessageId: '\u0000' }))).toEqual({
      part: part(),
    });
  });

  it('makes a "concatenated" message of one part a whole one', () => {
    expect(
      storableInbound(part({ concat: { reference: 9, total: 1, part: 1 } })),
    ).toEqual({ part: part() });
  });

  it('refuses what cannot be an SMS of ours, with the reason', () => {
    expect(problemOf({ body: 'x'.repeat(MAX_INBOUND_PART_TEXT + 1) })).toMatch(
      /longer than 1600/,
    );
    expect(problemOf({ body: 'x'.repeat(MAX_INBOUND_PART_TEXT) })).toBeNull();
    expect(problemOf({ concat: { reference: 1, total: 3, part: 4 } })).toMatch(
      /part number/,
    );
    expect(problemOf({ concat: { reference: 1, total: 3, part: 0 } })).toMatch(
      /part number/,
    );
    expect(
      problemOf({ concat: { reference: 1, total: 256, part: 1 } }),
    ).toMatch(/total/);
    expect(
      problemOf({ concat: { reference: 70000, total: 2, part: 1 } }),
    ).toMatch(/reference/);
    expect(
      problemOf({ concat: { reference: 1.5, total: 2, part: 1 } }),
    ).toMatch(/reference/);
    expect(problemOf({ to: '12' })).toMatch(/to must be/);
    expect(problemOf({ to: '4477x' })).toMatch(/to must be/);
    expect(problemOf({ from: ' ' })).toMatch(/from is missing/);
    expect(problemOf({ from: 'a'.repeat(21) })).toMatch(/from must be/);
    expect(problemOf({ from: 'evil\u202Ename' })).toMatch(/from must be/);
    expect(problemOf({ encoding: 'UTF-8' as never })).toMatch(/encoding/);
    expect(problemOf({ method: 'PIGEON' as never })).toMatch(/method/);
  });
});

describe('parseVonageInbound', () => {
  const fields = {
    msisdn: '447700900123',
    to: '447700900000',
    messageId: '0A0000001234ABCD',
    text: 'Hi',
    type: 'text',
    keyword: 'HI',
    'api-key': 'key-1',
    'message-timestamp': '2026-11-28 08:00:00',
  };

  it('reads a whole message and a part', () => {
    expect(parseVonageInbound(fields)).toEqual({
      part: part({
        method: 'VONAGE_SMS',
        providerMessageId: '0A0000001234ABCD',
        body: 'Hi',
      }),
    });
    expect(
      parseVonageInbound({
        ...fields,
        type: 'unicode',
        concat: 'true',
        'concat-ref': '12',
        'concat-total': '3',
        'concat-part': '2',
      }),
    ).toEqual({
      part: part({
        method: 'VONAGE_SMS',
        providerMessageId: '0A0000001234ABCD',
        body: 'Hi',
        encoding: 'UCS-2',
        concat: { reference: 12, total: 3, part: 2 },
      }),
    });
  });

  it('ignores a binary message; refuses bad fields with the reason', () => {
    expect(parseVonageInbound({ ...fields, type: 'binary' })).toEqual({
      ignore: 'binary message',
    });
    const error = (over: Record<string, string>) => {
      const parsed = parseVonageInbound({ ...fields, ...over });
      return 'error' in parsed ? parsed.error : null;
    };
    expect(error({ type: 'wap' })).toMatch(/type/);
    expect(error({ messageId: '' })).toMatch(/messageId is missing/);
    expect(error({ msisdn: '' })).toMatch(/msisdn is missing/);
    expect(error({ to: '' })).toMatch(/to is missing/);
    expect(
      error({ concat: 'true', 'concat-ref': '1', 'concat-total': 'x' }),
    ).toMatch(/concat-total/);
    expect(
      error({
        concat: 'true',
        'concat-ref': '1',
        'concat-total': '2',
        'concat-part': '3',
      }),
    ).toMatch(/part number/);
  });
});

describe('parseGatewayInbound', () => {
  it('reads {id, from, to, text}; the coding from the text', () => {
    expect(
      parseGatewayInbound({
        id: 42,
        from: '+447700900123',
        to: '447700900000',
        text: 'Hi',
      }),
    ).toEqual({
      part: part({
        method: 'WORLD_SPECIAL',
        providerMessageId: '42',
        body: 'Hi',
      }),
    });
    const unicode = parseGatewayInbound({
      id: 'a',
      from: '1234',
      to: '447700900000',
      text: 'Ω 😀',
    });
    expect(unicode).toMatchObject({ part: { encoding: 'UCS-2' } });
  });

  it('refuses a body without its fields', () => {
    expect(
      parseGatewayInbound({ id: 'a', from: '1', to: '447700900000' }),
    ).toMatchObject({
      error: expect.stringMatching(/text/),
    });
    expect(parseGatewayInbound('text')).toMatchObject({
      error: expect.stringMatching(/expected \{"id", "from", "to", "text"\}/),
    });
  });
});
