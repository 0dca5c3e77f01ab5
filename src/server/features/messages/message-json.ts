import type { FastifyReply } from 'fastify';

/**
 * Sends an answer that is JSON text already: a Message written by the database's one writer of
 * its JSON (message_json, migrations/functions/message_json.sql: a send's answer, a replayed
 * key's, a cancel's), with the type Fastify gives a serialized answer, and no serializer. The
 * route still declares MessageSchema, which the text is tested against
 * (tests/api/features/messages/send-answer.test.ts).
 */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
