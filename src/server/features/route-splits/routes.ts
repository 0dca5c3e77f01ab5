import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEFAULT_PAGE_SIZE } from '../../../shared/limits.ts';
import {
  IdParamsSchema,
  pagingSchema,
} from '../../../shared/schemas/common.ts';
import {
  CreateRouteSplitSchema,
  RouteSplitListSchema,
  RouteSplitQuerySchema,
  RouteSplitSchema,
  UpdateRouteSplitSchema,
} from '../../../shared/schemas/route-splits.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses, NoContentSchema } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['admin: route splits'];
const ListQuerySchema = pagingSchema(DEFAULT_PAGE_SIZE).extend(
  RouteSplitQuerySchema.shape,
);

/** How a client's SMS are spread over delivery methods, by weight; for admins. */
export function routeSplitsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/routes/split',
      {
        config: { role: { family: 'ROUTE', verb: 'CREATE' } },
        schema: {
          operationId: 'adminCreateRouteSplit',
          tags,
          summary: "Create a split for a user's client (weight defaults to 10)",
          body: CreateRouteSplitSchema,
          response: {
            201: RouteSplitSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await service.createRouteSplit(deps, request.actor, request.body),
          ),
    );

    app.put(
      '/routes/split/:id',
      {
        config: { role: { family: 'ROUTE', verb: 'UPDATE' } },
        schema: {
          operationId: 'adminUpdateRouteSplit',
          tags,
          summary: 'Change the delivery method and weight of a split',
          params: IdParamsSchema,
          body: UpdateRouteSplitSchema,
          response: {
            200: RouteSplitSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.updateRouteSplit(
          deps,
          request.actor,
          request.params.id,
          request.body,
        ),
    );

    app.get(
      '/routes/split/:id',
      {
        config: { role: { family: 'ROUTE', verb: 'VIEW' } },
        schema: {
          operationId: 'adminGetRouteSplit',
          tags,
          summary: 'Get a split',
          params: IdParamsSchema,
          response: {
            200: RouteSplitSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => service.getRouteSplit(deps, request.params.id),
    );

    app.get(
      '/routes/split',
      {
        config: { role: { family: 'ROUTE', verb: 'LIST' } },
        schema: {
          operationId: 'adminListRouteSplits',
          tags,
          summary: 'List splits, optionally of one user or one client',
          querystring: ListQuerySchema,
          response: {
            200: RouteSplitListSchema,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) => {
        const { userId, clientId, ...page } = request.query;
        return {
          ...(await service.listRouteSplits(deps, { userId, clientId }, page)),
          ...page,
        };
      },
    );

    app.delete(
      '/routes/split/:id',
      {
        config: { role: { family: 'ROUTE', verb: 'DELETE' } },
        schema: {
          operationId: 'adminDeleteRouteSplit',
          tags,
          summary:
            'Delete exactly this split (the spec had no id here: a defect, fixed)',
          params: IdParamsSchema,
          response: {
            204: NoContentSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        await service.deleteRouteSplit(deps, request.actor, request.params.id);
        return reply.code(204).send();
      },
    );
  };
}
