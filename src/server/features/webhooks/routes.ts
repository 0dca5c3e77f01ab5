import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import {
  VONAGE_RECEIPT_PATH,
  WORLD_SPECIAL_RECEIPT_PATH,
} from '../../delivery/webhook-paths.ts';
import { strictFormFields } from '../../delivery/receipt-fields.ts';
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
 */
export function webhooksRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
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
          'sig and timestamp when VONAGE_SIGNATURE_SECRET is set.',
        security: [],
        response: { 200: AnswerSchema, ...errorResponses(400, 401) },
      },
    };
    app.get(path(VONAGE_RECEIPT_PATH), vonage, async (request) =>
      answer(
        await service.vonageReceipt(deps, strictQuery(request.url), undefined),
      ),
    );
    app.post(path(VONAGE_RECEIPT_PATH), vonage, async (request) => {
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
