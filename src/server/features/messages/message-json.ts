import type { FastifyReply, FastifySerializerCompiler } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { serializerCompiler } from 'fastify-type-provider-zod';
import {
  MessageSchema,
  type Message,
} from '../../../shared/schemas/messages.ts';

/**
 * A message as its answer's JSON, byte for byte what the zod serializer writes for it
 * (MessageSchema's fields, in its order, nothing else) without zod's encode pass over a value
 * `toMessage` built field by field: 2.4-3.5 µs against zod's 8-12 µs. The literal names every
 * field (the type refuses a missing or extra one) in the schema's order (checked by the tests);
 * a replacer array (`JSON.stringify(message, fields)`) was slower than zod. A send's own answer
 * is written by send_sms_batch in the same bytes (migrations/028; tests/api/send-answer.test.ts
 * compares the two): this one writes a cancel's answer and a replayed key's stored one.
 */
export function messageJson(m: Message): string {
  const answer: Message = {
    id: m.id,
    clientId: m.clientId,
    sender: m.sender,
    recipient: m.recipient,
    body: m.body,
    reference: m.reference,
    state: m.state,
    deliveryMethod: m.deliveryMethod,
    simulated: m.simulated,
    encoding: m.encoding,
    segments: m.segments,
    price: m.price,
    pricePerSegment: m.pricePerSegment,
    pricePrefix: m.pricePrefix,
    currency: m.currency,
    batchId: m.batchId,
    sendAt: m.sendAt,
    dateCreated: m.dateCreated,
    dateUpdated: m.dateUpdated,
  };
  return JSON.stringify(answer);
}

/**
 * Sends an answer that is JSON text already (a send's, written by send_sms_batch in the same
 * bytes as `messageJson`): with the type Fastify gives a serialized answer, and no serializer.
 */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/**
 * The serializer compiler of the routes answering one message (the cancel):
 * `messageJson` for MessageSchema, zod's serializer for every other answer (errors).
 */
export function messageSerializerCompiler<S>(
  route: FastifyRouteSchemaDef<S>,
): ReturnType<FastifySerializerCompiler<S>> {
  // Fastify types a route's serializer compiler with the route's whole schema; it is called
  // with each answer's own schema (a zod schema here).
  const answer = route as FastifyRouteSchemaDef<unknown>;
  return answer.schema === MessageSchema
    ? messageJson
    : serializerCompiler(answer as Parameters<typeof serializerCompiler>[0]);
}
