import type {
  FastifyPluginAsyncZod,
  ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PrefixParamsSchema,
  PriceImportResultSchema,
  PriceSchema,
  PutPriceSchema,
} from '../../../shared/schemas/prices.ts';
import { PRICE_CSV_HEADER } from '../../../shared/price-csv.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses, NoContentSchema } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['admin: prices'];
const role = { family: 'PRICE', verb: 'ADMIN' } as const;
/** A CSV import of ~10,000 lines and more (about 40 bytes a line). */
export const PRICE_CSV_BODY_LIMIT = 2 * 1024 * 1024;

/** The import's query: `allowEmpty=true` lets a file without entries empty the list. */
const ImportQuerySchema = z.object({
  allowEmpty: z
    .enum(['true', 'false'], { error: 'allowEmpty must be true or false' })
    .optional(),
});

/** The price list by destination prefix, kept by staff holding ROLE_PRICE_ADMIN. */
export function adminPricesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.put(
      '/prices/:prefix',
      {
        config: { role },
        schema: {
          operationId: 'adminSetPrice',
          tags,
          summary: 'Create or replace the price of a destination prefix',
          params: PrefixParamsSchema,
          body: PutPriceSchema,
          response: {
            200: PriceSchema,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) =>
        service.putPrice(
          deps,
          request.actor,
          request.params.prefix,
          request.body,
        ),
    );

    app.get(
      '/prices.csv',
      {
        config: { role },
        schema: {
          operationId: 'adminExportPricesCsv',
          tags,
          summary: `The whole price list as CSV (text/csv): the header ${PRICE_CSV_HEADER}, then one line per entry by prefix`,
          produces: ['text/csv'],
          response: {
            200: z.string().describe('CSV, a header then one line per entry'),
            ...errorResponses(401, 403),
          },
        },
      },
      async (_request, reply) =>
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="prices.csv"')
          .send(await service.priceCsv(deps)),
    );

    // Only this route reads a text/csv body, and only it may be this large.
    await app.register(async (csv) => {
      csv.addContentTypeParser(
        'text/csv',
        { parseAs: 'string', bodyLimit: PRICE_CSV_BODY_LIMIT },
        (_request, body, done) => done(null, body),
      );
      csv.withTypeProvider<ZodTypeProvider>().put(
        '/prices.csv',
        {
          config: { role },
          bodyLimit: PRICE_CSV_BODY_LIMIT,
          schema: {
            operationId: 'adminImportPricesCsv',
            tags,
            summary: `Replace the whole price list with a CSV file (text/csv, header ${PRICE_CSV_HEADER}) in one transaction; a bad line answers 400 naming its number, and nothing changes. A file without entries (header only, or empty) answers 400 unless the query says allowEmpty=true. The price.imported audit event keeps the list replaced (before)`,
            consumes: ['text/csv'],
            querystring: ImportQuerySchema,
            body: z.string('Send the price list as a text/csv body'),
            response: {
              200: PriceImportResultSchema,
              ...errorResponses(400, 401, 403, 413, 415),
            },
          },
        },
        async (request) =>
          service.importPrices(
            deps,
            request.actor,
            request.body,
            request.query.allowEmpty === 'true',
          ),
      );
    });

    app.delete(
      '/prices/:prefix',
      {
        config: { role },
        schema: {
          operationId: 'adminDeletePrice',
          tags,
          summary: 'Delete the price of a destination prefix',
          params: PrefixParamsSchema,
          response: {
            204: NoContentSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        await service.deletePrice(deps, request.actor, request.params.prefix);
        return reply.code(204).send();
      },
    );
  };
}
