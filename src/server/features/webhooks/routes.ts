import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import {
  VONAGE_RECEIPT_PATH,
  WORLD_SPECIAL_RECEIPT_PATH,
} from '../../delivery/webhook-paths.ts';
import { badRequest } from '../../errors.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['webhooks'];
const AnswerSchema = z.object({ status: z.enum(['taken', 'ignored']) });
const answer = (result: service.ReceiptAnswer) => ({
  status: result.taken ? ('taken' as const) : ('ignored' as const),
});
/** Registered under /api. */
const path = (full: string) => full.replace(/^\/api/, '');

/**
 * Public: the providers call these. Each checks its provider's own credential (Vonage's
 * signature when VONAGE_SIGNATURE_SECRET is set, the gateway's bearer token) instead of ours.
 */
export function webhooksRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    // Vonage may post its receipts as a form; only these routes take one.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    const vonage = {
      schema: {
        tags,
        summary: 'Vonage delivery receipt',
        description:
          'Vonage calls this with its receipt fields (query string, form or JSON). Signed with ' +
          'sig and timestamp when VONAGE_SIGNATURE_SECRET is set.',
        security: [],
        response: { 200: AnswerSchema, ...errorResponses(400, 401) },
      },
    };
    app.get(path(VONAGE_RECEIPT_PATH), vonage, async (request) =>
      answer(await service.vonageReceipt(deps, request.query, undefined)),
    );
    app.post(path(VONAGE_RECEIPT_PATH), vonage, async (request) => {
      if (request.body !== undefined && typeof request.body !== 'object') {
        throw badRequest(
          'Invalid Vonage receipt: expected form or JSON fields',
        );
      }
      return answer(
        await service.vonageReceipt(deps, request.query, request.body),
      );
    });
    app.post(
      path(WORLD_SPECIAL_RECEIPT_PATH),
      {
        schema: {
          tags,
          summary: 'WORLD_SPECIAL gateway delivery receipt',
          description:
            'JSON {"id", "status": "delivered"|"undelivered"|"expired"|"rejected", "error"?} ' +
            'with Authorization: Bearer WORLD_SPECIAL_TOKEN.',
          security: [],
          response: { 200: AnswerSchema, ...errorResponses(400, 401) },
        },
      },
      async (request) =>
        answer(
          await service.worldSpecialReceipt(
            deps,
            request.headers.authorization,
            request.body,
          ),
        ),
    );
  };
}
