import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common.ts';
import {
  MessageSchema,
  type Message,
} from '../../../shared/schemas/messages.ts';
import { messageJson, messageSerializerCompiler } from './message-json.ts';
import { toMessage } from './repo.ts';

const route = <S extends ZodType>(schema: S) => ({
  schema,
  method: 'POST',
  url: '/api/clients/:clientId/messages/sms',
  httpStatus: '201',
});
const zodJson = serializerCompiler(route(MessageSchema));

/** A row as send_sms_batch answers it (to_jsonb: dates and numerics as JSON text/numbers). */
const row = {
  id: '3f2a9c4e-8b1d-4e6f-a2c5-7d9e0b1f4a6c',
  client_id: '0b6c1a9e-1d2f-4a3b-8c4d-5e6f7a8b9c0d',
  sender: 'Bench',
  recipient: '447700900123',
  body: 'Hello',
  reference: '',
  state: 'ACCEPTED' as const,
  delivery_method: null,
  simulated: false,
  encoding: 'GSM-7' as const,
  segments: 1,
  price: 0.05,
  currency: 'EUR',
  price_per_segment: 0.05,
  price_prefix: null,
  batch_id: null,
  send_at: null,
  date_created: '2026-11-26T09:49:07.123456+00:00',
  date_updated: '2026-11-26T09:49:07.123456+00:00',
};

const messages: Message[] = [
  toMessage(row),
  toMessage({
    ...row,
    state: 'SCHEDULED',
    body: 'Quotes " and \\ backslash,\nnew line, tab\t, \u2028 \u0001 ünïcödé 😀',
    encoding: 'UCS-2',
    segments: 2,
    price: '0.1235',
    price_per_segment: '0.06175',
    price_prefix: '4477',
    reference: 'ref "x"',
    batch_id: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
    send_at: new Date('2026-12-01T09:00:00Z'),
    date_created: new Date('2026-11-26T09:49:07.123Z'),
    date_updated: new Date('2026-11-26T09:49:08.001Z'),
  }),
  toMessage({
    ...row,
    state: 'DELIVERED',
    delivery_method: 'MELROSE_SMPP',
    simulated: true,
  }),
];

describe('messageJson', () => {
  it.each(messages.map((message) => [message.state, message]))(
    'writes a %s message byte for byte as the zod serializer does',
    (_, message) => {
      expect(messageJson(message)).toBe(zodJson(message));
    },
  );

  it('writes MessageSchema fields only, in its order, as zod does', () => {
    const extra = { extra: 'not an answer field', ...messages[0]! };
    expect(messageJson(extra)).toBe(zodJson(extra));
    expect(Object.keys(JSON.parse(messageJson(extra)))).toEqual(
      Object.keys(MessageSchema.shape),
    );
  });

  it('answers toMessage values that MessageSchema accepts (it no longer checks them)', () => {
    for (const message of messages) {
      expect(MessageSchema.parse(message)).toEqual(message);
    }
  });
});

describe('messageSerializerCompiler', () => {
  it('serializes a message answer with messageJson, without zod', () => {
    expect(messageSerializerCompiler(route(MessageSchema))).toBe(messageJson);
  });

  it("keeps zod's serializer for the other answers (errors)", () => {
    const error = {
      statusCode: 404,
      error: 'Not Found',
      code: 'not_found',
      message: 'No such client',
    };
    const serialize = messageSerializerCompiler({
      ...route(ErrorSchema),
      httpStatus: '404',
    });
    expect(serialize).not.toBe(messageJson);
    expect(serialize(error)).toBe(
      serializerCompiler(route(ErrorSchema))(error),
    );
    expect(() => serialize({ statusCode: 'x' })).toThrow();
  });
});
