import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PriceListQuerySchema,
  PriceListSchema,
} from '../../../shared/schemas/prices.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['prices'];

/** The price list by destination, for any signed-in user or API client. */
export function pricesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/prices',
      {
        schema: {
          operationId: 'listPrices',
          tags,
          summary:
            'The price per segment by destination prefix (the longest matching prefix applies; none: the default price), by prefix; `q` finds prefixes starting with it or names holding it (any case)',
          querystring: PriceListQuerySchema,
          response: {
            200: PriceListSchema,
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => {
        const { q, ...page } = request.query;
        return service.listPrices(deps, q, page);
      },
    );
  };
}
