import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ClientIdParamsSchema,
  IdSchema,
} from '../../../shared/schemas/common.ts';
import {
  MessageDetailSchema,
  MessageFilterSchema,
  MessageListSchema,
  MessageQuerySchema,
  MessageSchema,
  SendSmsSchema,
} from '../../../shared/schemas/messages.ts';
import { QuoteSchema } from '../../../shared/schemas/prices.ts';
import type { Deps } from '../../deps.ts';
import { idempotencyKey } from '../../idempotency.ts';
import { errorResponses } from '../../schemas.ts';
import { sendJson } from './message-json.ts';
import { sendValidatorCompiler } from './send-body.ts';
import * as service from './service.ts';

const tags = ['messages'];
/** A quote's recipient and body are validated (and the recipient cleaned) as a send's. */
const QuoteQuerySchema = SendSmsSchema.pick({ recipient: true, body: true });
const MessageParamsSchema = z.object({
  clientId: IdSchema,
  messageId: IdSchema,
});

async function sendCsv(
  reply: FastifyReply,
  lines: AsyncGenerator<string>,
): Promise<FastifyReply> {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="messages.csv"')
    .header('cache-control', 'no-store')
    .send(Readable.from(lines));
}

const LOG_DESCRIPTION =
  'Newest first. Filters: state, recipient (cleaned like a send), since and until (ISO 8601; ' +
  'until is exclusive), batchId (the messages of one batch).';

/**
 * Sending SMS from one of my clients and reading its message log; an API client may do both
 * for itself (client-or-user scope).
 */
export function messagesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/clients/:clientId/messages/sms',
      {
        schema: {
          operationId: 'sendSms',
          tags,
          summary:
            "Send an SMS: debits segments × the recipient's price (402 when the balance is too low)",
          description:
            "The price per segment is the price list's entry with the longest prefix of the " +
            'recipient, else SMS_PRICE; the amount is segments × it, rounded half up to 4 ' +
            "decimal places. A blocked destination, or one outside the client's allowed " +
            'prefixes, answers 403, and so does a recipient opted out of this client (code ' +
            "recipient_opted_out: it replied STOP, or PUT …/optouts); beyond the client's messages a second, 429 with " +
            'Retry-After; nothing is charged for either. ' +
            'The recipient loses plus signs, dots, dashes and whitespace, then a leading 00 (the ' +
            'international prefix), and must then be 6 to 15 digits; one still beginning with 0 ' +
            'is a national number (400). The body is counted in GSM-7 (160, or 153 per part) or UCS-2 (70, or 67 per ' +
            'part) segments, at most 10. Needs ROLE_SMS_CREATE. With an `Idempotency-Key` header ' +
            '(1 to 255 printable ASCII characters), a repeat of the same request for the same ' +
            'client within 24 hours answers the first message again (201, header ' +
            '`Idempotent-Replayed: true`) and charges nothing; the same key with a different ' +
            'request answers 422. A refused send (402, 404) keeps no key. With `sendAt` (ISO 8601 ' +
            'with its offset, from now up to 35 days ahead, else 400) the message is charged and ' +
            "counted against the client's messages a second now, and stays SCHEDULED until " +
            'then; `sendAt` is part of the request an Idempotency-Key stands for.',
          params: ClientIdParamsSchema,
          body: SendSmsSchema,
          response: {
            201: MessageSchema,
            ...errorResponses(400, 401, 402, 403, 404, 422, 429),
          },
        },
        validatorCompiler: sendValidatorCompiler,
      },
      async (request, reply) => {
        const { clientId } = request.params;
        const key = idempotencyKey(request);
        const { answer, replayed } = await service.sendSms(
          deps,
          request.actor,
          clientId,
          request.body,
          key,
        );
        if (replayed) reply.header('idempotent-replayed', 'true');
        // The answer comes written (send_sms_batch, by message_json): sent on as it is.
        return sendJson(reply.code(201), answer);
      },
    );

    app.post(
      '/clients/:clientId/messages/:messageId/cancel',
      {
        schema: {
          operationId: 'cancelMessage',
          tags,
          summary:
            'Cancel a scheduled message: CANCELED and its price refunded (409 unless SCHEDULED)',
          description:
            'The refund is one REFUND ledger entry, exactly once even when cancels race. A ' +
            'message already released into delivery (or in any other state than SCHEDULED) ' +
            'answers 409. Needs ROLE_SMS_CREATE.',
          params: MessageParamsSchema,
          response: {
            200: MessageSchema,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request, reply) => {
        const { clientId, messageId } = request.params;
        // The answer comes written (message_json), as a send's.
        return sendJson(
          reply,
          await service.cancelMessage(deps, request.actor, clientId, messageId),
        );
      },
    );

    app.get(
      '/clients/:clientId/quote',
      {
        schema: {
          operationId: 'quoteSms',
          tags,
          summary:
            'What sending this body to this recipient would cost, and whether it is allowed',
          description:
            'Recipient and body are checked as a send checks them (400 otherwise). Priced by ' +
            'the same rule as the send: `reason` (null when allowed) is the text the send ' +
            "would refuse with (403). The client's messages a second are not counted.",
          params: ClientIdParamsSchema,
          querystring: QuoteQuerySchema,
          response: {
            200: QuoteSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) =>
        service.quoteSms(
          deps,
          request.actor,
          request.params.clientId,
          request.query,
        ),
    );

    app.get(
      '/clients/:clientId/messages',
      {
        schema: {
          operationId: 'listMessages',
          tags,
          summary: "A client's message log",
          description: LOG_DESCRIPTION,
          params: ClientIdParamsSchema,
          querystring: MessageQuerySchema,
          response: {
            200: MessageListSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) => {
        const { clientId } = request.params;
        return service.listMessages(
          deps,
          clientId,
          request.actor.user.id,
          request.query,
        );
      },
    );

    app.get(
      '/clients/:clientId/messages.csv',
      {
        schema: {
          operationId: 'exportMessagesCsv',
          tags,
          summary: "A client's message log as CSV (text/csv, streamed)",
          description: `${LOG_DESCRIPTION} One row per message, columns ${service.CSV_COLUMNS.join(', ')}.`,
          params: ClientIdParamsSchema,
          querystring: MessageFilterSchema,
          response: errorResponses(400, 401, 404),
        },
      },
      async (request, reply) => {
        const { clientId } = request.params;
        return sendCsv(
          reply,
          await service.messagesCsv(
            deps,
            clientId,
            request.actor.user.id,
            request.query,
          ),
        );
      },
    );

    app.get(
      '/clients/:clientId/messages/:messageId',
      {
        schema: {
          operationId: 'getMessage',
          tags,
          summary: 'One message of a client, with its delivery attempts',
          description:
            "Each attempt keeps the provider's words (`error`), `errorCode` (why it was not " +
            'delivered, the same whatever the provider) and `providerErrorCode` (the ' +
            "provider's own code); `callbacks` lists every status callback try. Poll it until a " +
            'final state (DELIVERED, UNDELIVERED, EXPIRED, REJECTED, FAILED, CANCELED), or take ' +
            'the status callback instead (webhooks.messageStatus).',
          params: MessageParamsSchema,
          response: {
            200: MessageDetailSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) => {
        const { clientId, messageId } = request.params;
        return service.getMessage(
          deps,
          clientId,
          request.actor.user.id,
          messageId,
        );
      },
    );
  };
}

/** Any client's message log, for staff (admin scope, ROLE_CLIENT_ADMIN or ROLE_CLIENT_VIEW). */
export function adminMessagesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    const role = { family: 'CLIENT', verb: 'VIEW' } as const;
    app.get(
      '/clients/:clientId/messages',
      {
        config: { role },
        schema: {
          operationId: 'adminListMessages',
          tags: ['admin: messages'],
          summary: "Any client's message log",
          description: LOG_DESCRIPTION,
          params: ClientIdParamsSchema,
          querystring: MessageQuerySchema,
          response: {
            200: MessageListSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.listMessages(
          deps,
          request.params.clientId,
          null,
          request.query,
        ),
    );

    app.get(
      '/clients/:clientId/messages/:messageId',
      {
        config: { role },
        schema: {
          operationId: 'adminGetMessage',
          tags: ['admin: messages'],
          summary: 'One message of any client, with its delivery attempts',
          params: MessageParamsSchema,
          response: {
            200: MessageDetailSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.getMessage(
          deps,
          request.params.clientId,
          null,
          request.params.messageId,
        ),
    );
  };
}
