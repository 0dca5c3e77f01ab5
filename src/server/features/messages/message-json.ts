import type { FastifySchema } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { serializerCompiler } from 'fastify-type-provider-zod';
import {
  MessageSchema,
  type Message,
} from '../../../shared/schemas/messages.ts';

/** The answer's fields in the schema's order, the order zod's serializer writes them in. */
const MESSAGE_FIELDS = Object.keys(MessageSchema.shape);

/**
 * A message as its answer's JSON, byte for byte what the zod serializer writes for it
 * (MessageSchema's fields, in its order, nothing else) without zod's encode pass over a value
 * `toMessage` built field by field: that pass was about a tenth of the Node CPU of a send.
 */
export function messageJson(message: Message): string {
  return JSON.stringify(message, MESSAGE_FIELDS);
}

/**
 * The serializer compiler of the routes answering one message (the send, its replay, the
 * cancel): `messageJson` for MessageSchema, zod's serializer for every other answer (errors).
 */
export function messageSerializerCompiler<S extends FastifySchema>(
  route: FastifyRouteSchemaDef<S>,
): (data: Message) => string {
  // Fastify types a route's serializer compiler with the route's whole schema; it is called
  // with each answer's own schema (a zod schema here).
  const answer = route as FastifyRouteSchemaDef<unknown>;
  return answer.schema === MessageSchema
    ? messageJson
    : serializerCompiler(answer as Parameters<typeof serializerCompiler>[0]);
}
