import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { SendSmsSchema } from '../../../shared/schemas/messages.ts';
import { parseCommonSend, sendValidatorCompiler } from './send-body.ts';

const senders = [
  'Shop',
  '  Shop ',
  '',
  '  ',
  'A'.repeat(11),
  'A'.repeat(12),
  '12345678901234',
  '+447700900123',
  'Shöp',
  'Sh op',
  'Shop\n',
  '\ud800Shop',
  7,
];
const recipients = [
  '447700900123',
  '+44 7700-900.123',
  '12345',
  '1'.repeat(15),
  '1'.repeat(16),
  '',
  '44770090012a',
  '٤٤٧٧٠٠٩٠٠١٢٣',
  '44\u00a07700900123',
  '\udc00447700900123',
  null,
];
const bodies = [
  'Hello',
  '',
  'a'.repeat(1530),
  'a'.repeat(1531),
  'ü'.repeat(670),
  'ü'.repeat(671),
  '{'.repeat(765),
  '{'.repeat(766),
  'x\u0000y',
  '\ud83d',
  '😀',
];
const references = [
  undefined,
  '',
  'r',
  'x'.repeat(100),
  'x'.repeat(101),
  null,
  5,
  '\udc00',
];

/** Every combination of the values above, and a few bodies of other shapes. */
const inputs: unknown[] = [
  ...senders.flatMap((sender) =>
    recipients.flatMap((recipient) =>
      bodies.flatMap((body) =>
        references.map((reference) =>
          reference === undefined
            ? { sender, recipient, body }
            : { sender, recipient, body, reference },
        ),
      ),
    ),
  ),
  { sender: 'Shop', recipient: '447700900123', body: 'Hi', extra: 1 },
  {
    sender: 'Shop',
    recipient: '447700900123',
    body: 'Hi',
    sendAt: '2099-01-01T00:00:00Z',
  },
  { sender: 'Shop', recipient: '447700900123', body: 'Hi', sendAt: null },
  { recipient: '447700900123', body: 'Hi' },
  null,
  [],
  'Shop',
  5,
];

describe('parseCommonSend', () => {
  it('accepts only what SendSmsSchema accepts, with the same value', () => {
    let accepted = 0;
    for (const input of inputs) {
      const fast = parseCommonSend(input);
      if (fast === undefined) continue;
      accepted++;
      const parsed = SendSmsSchema.safeParse(input);
      expect(parsed.success, JSON.stringify(input)).toBe(true);
      expect(fast, JSON.stringify(input)).toStrictEqual(parsed.data);
    }
    expect(accepted).toBeGreaterThan(100);
  });

  it('takes the common send, trimmed and cleaned as the schema does', () => {
    expect(
      parseCommonSend({
        sender: ' Shop ',
        recipient: '+44 7700 900-123',
        body: 'Hello',
      }),
    ).toStrictEqual({
      sender: 'Shop',
      recipient: '447700900123',
      body: 'Hello',
      reference: '',
    });
  });

  it('leaves a scheduled send to the schema', () => {
    expect(
      parseCommonSend({
        sender: 'Shop',
        recipient: '447700900123',
        body: 'Hi',
        sendAt: '2099-01-01T00:00:00Z',
      }),
    ).toBeUndefined();
  });
});

describe('sendValidatorCompiler', () => {
  const route = (httpPart: string) => ({
    schema: SendSmsSchema,
    method: 'POST',
    url: '/api/clients/:clientId/messages/sms',
    httpPart,
  });

  it("answers each input as the schema's own validator does", () => {
    const ours = sendValidatorCompiler(route('body'));
    const zods = validatorCompiler(route('body'));
    // A sample: the schema's errors are slow to build, and every accepted input is in it.
    const sample = inputs.filter(
      (input, i) => i % 16 === 0 || parseCommonSend(input) !== undefined,
    );
    for (const input of sample) {
      expect(ours(input), JSON.stringify(input)).toStrictEqual(zods(input));
    }
  });

  it("leaves other parts to the schema's validator", () => {
    const ours = sendValidatorCompiler(route('params'));
    expect(ours({ sender: 'x' })).toStrictEqual(
      validatorCompiler(route('params'))({ sender: 'x' }),
    );
  });
});
