import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PrefixParamsSchema,
  PriceSchema,
  PutPriceSchema,
} from '../../../shared/schemas/prices.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses, NoContentSchema } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['admin: prices'];
const role = { family: 'PRICE', verb: 'ADMIN' } as const;

/** The price list by destination prefix, kept by staff holding ROLE_PRICE_ADMIN. */
export function adminPricesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.put(
      '/prices/:prefix',
      {
        config: { role },
        schema: {
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

    app.delete(
      '/prices/:prefix',
      {
        config: { role },
        schema: {
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
