import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import {
  VONAGE_RECEIPT_PATH,
  GENERIC_GATEWAY_RECEIPT_PATH,
  strictFormFields,
} from '../../delivery/index.ts';
import { badRequest, HttpError } from '../../errors.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['webhooks'];
const AnswerSchema = z.object({ status: z.enum(['taken', 'ignored']) });
const answer = (result: service.ReceiptAnswer | service.InboundAnswer) => ({
  status: result.taken ? ('taken' as const) : ('ignored' as const),
});
/** The inbound webhooks given to the HTTP providers (CONTRACT "Two-way messaging"). */
export const VONAGE_INBOUND_PATH = '/api/webhooks/vonage/inbound';
export const GENERIC_GATEWAY_INBOUND_PATH =
  '/api/webhooks/world-special/inbound';
/** Registered under /api. */
const path = (full: string) => full.replace(/^\/api/, '');

/**
 * The query string decoded strictly (Fastify's parser leaves an escape that is not UTF-8 as
 * it was, e.g. a lone surrogate's %ED%A0%80): a receipt we would read otherwise than it was
 * meant is refused.
 */
function strictQuery(url: string): Record<string, string> {
  const at = url.indexOf('?');
  const fields = strictFormFields(at < 0 ? '' : url.slice(at + 1));
  if (!fields) throw badRequest(MALFORMED);
  return fields;
}
const MALFORMED =
  'Invalid receipt: a percent-escape in the query string or form is not UTF-8';

/**
 * Public: the providers call these. Each checks its provider's own credential (Vonage's
 * signature when VONAGE_SIGNATURE_SECRET is set, the gateway's bearer token) instead of ours.
 * Being public, they are rate-limited per address (WEBHOOK_RATE_LIMIT a second, both webhooks
 * together): far above what a provider sends one server, far below what fills a database.
 */
export function webhooksRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    if (deps.config.delivery.vonage && !deps.config.delivery.vonageSignature) {
      app.log.warn(
        'VONAGE_SIGNATURE_SECRET is not set: anyone can post Vonage delivery receipts and ' +
          'inbound messages. Unsigned receipts only count for the message named in their ' +
          'client-ref, but a customer can still report false states for their own messages, ' +
          'and anyone can make up an inbound message (a STOP opts its sender out). Enable signed ' +
          "webhooks in Vonage's dashboard and set VONAGE_SIGNATURE_SECRET.",
      );
    }
    // Encapsulated in this plugin: only the webhooks are limited this way. Counted before the
    // body is read, in this node's memory.
    await app.register(import('@fastify/rate-limit'), {
      max: deps.config.webhookRateLimit,
      timeWindow: 1000,
      errorResponseBuilder: (_request, context) =>
        new HttpError(
          429,
          `Too many webhook requests from this address: at most ${context.max} a second`,
          { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
        ),
    });
    // Vonage may post its receipts as a form; only these routes take one.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        const fields = strictFormFields(body as string);
        if (fields) done(null, fields);
        else done(badRequest(MALFORMED));
      },
    );
    const vonage = {
      schema: {
        tags,
        summary: 'Vonage delivery receipt',
        description:
          'Vonage calls this with its receipt fields (query string, form or JSON). Signed with ' +
          'sig and timestamp when VONAGE_SIGNATURE_SECRET is set (a timestamp more than 5 ' +
          'minutes old is refused); unsigned, a receipt counts only for the message named in ' +
          'its client-ref. 404 when VONAGE_API_KEY is not set.',
        security: [],
        response: {
          200: AnswerSchema,
          ...errorResponses(400, 401, 404, 429),
        },
      },
    };
    app.get(
      path(VONAGE_RECEIPT_PATH),
      {
        schema: {
          ...vonage.schema,
          operationId: 'receiveVonageReceiptQuery',
          summary: 'Vonage delivery receipt, as a query string (GET)',
        },
      },
      async (request) =>
        answer(
          await service.vonageReceipt(
            deps,
            strictQuery(request.url),
            undefined,
          ),
        ),
    );
    app.post(
      path(VONAGE_RECEIPT_PATH),
      {
        schema: {
          ...vonage.schema,
          operationId: 'receiveVonageReceipt',
          summary: 'Vonage delivery receipt, as a form or JSON (POST)',
        },
      },
      async (request) => {
        if (request.body !== undefined && typeof request.body !== 'object') {
          throw badRequest(
            'Invalid Vonage receipt: expected form or JSON fields',
          );
        }
        return answer(
          await service.vonageReceipt(
            deps,
            strictQuery(request.url),
            request.body,
          ),
        );
      },
    );
    const vonageInbound = {
      tags,
      description:
        'Vonage calls this with its inbound SMS fields (msisdn, to, messageId, text, type, ' +
        'concat, concat-ref, concat-total, concat-part…; query string, form or JSON). Signed ' +
        'with sig and timestamp when VONAGE_SIGNATURE_SECRET is set, checked as for receipts. ' +
        'Answers 200 taken once stored, for a message already stored or to a number nobody ' +
        'holds too (dropped), so Vonage stops sending it; ignored for a binary message. 404 ' +
        'when VONAGE_API_KEY is not set.',
      security: [],
      response: {
        200: AnswerSchema,
        ...errorResponses(400, 401, 404, 429),
      },
    };
    app.get(
      path(VONAGE_INBOUND_PATH),
      {
        schema: {
          ...vonageInbound,
          operationId: 'receiveVonageInboundQuery',
          summary: 'Vonage inbound SMS, as a query string (GET)',
        },
      },
      async (request) =>
        answer(
          await service.vonageInbound(
            deps,
            strictQuery(request.url),
            undefined,
          ),
        ),
    );
    app.post(
      path(VONAGE_INBOUND_PATH),
      {
        schema: {
          ...vonageInbound,
          operationId: 'receiveVonageInbound',
          summary: 'Vonage inbound SMS, as a form or JSON (POST)',
        },
      },
      async (request) => {
        if (request.body !== undefined && typeof request.body !== 'object') {
          throw badRequest(
            'Invalid Vonage inbound message: expected form or JSON fields',
          );
        }
        return answer(
          await service.vonageInbound(
            deps,
            strictQuery(request.url),
            request.body,
          ),
        );
      },
    );
    app.post(
      path(GENERIC_GATEWAY_INBOUND_PATH),
      {
        schema: {
          operationId: 'receiveWorldSpecialInbound',
          tags,
          summary: 'WORLD_SPECIAL gateway inbound SMS',
          description:
            'JSON {"id", "from", "to", "text"} with Authorization: Bearer WORLD_SPECIAL_TOKEN. ' +
            'Answers 200 taken once stored, for a message already stored or to a number ' +
            'nobody holds too (dropped).',
          security: [{ gatewayBearer: [] }],
          response: {
            200: AnswerSchema,
            ...errorResponses(400, 401, 429),
          },
        },
      },
      async (request) =>
        answer(
          await service.genericGatewayInbound(
            deps,
            request.headers.authorization,
            request.body,
          ),
        ),
    );
    app.post(
      path(GENERIC_GATEWAY_RECEIPT_PATH),
      {
        schema: {
          operationId: 'receiveWorldSpecialReceipt',
          tags,
          summary: 'WORLD_SPECIAL gateway delivery receipt',
          description:
            'JSON {"id", "status": "delivered"|"undelivered"|"expired"|"rejected", "error"?} ' +
            'with Authorization: Bearer WORLD_SPECIAL_TOKEN.',
          security: [{ gatewayBearer: [] }],
          response: {
            200: AnswerSchema,
            ...errorResponses(400, 401, 429),
          },
        },
      },
      async (request) =>
        answer(
          await service.genericGatewayReceipt(
            deps,
            request.headers.authorization,
            request.body,
          ),
        ),
    );
  };
}
