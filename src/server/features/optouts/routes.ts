import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClientIdParamsSchema } from '../../../shared/schemas/common.ts';
import {
  OptOutListSchema,
  OptOutParamsSchema,
  OptOutQuerySchema,
  OptOutSchema,
} from '../../../shared/schemas/optouts.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses, NoContentSchema } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['opt-outs'];

const LIST_DESCRIPTION =
  'Newest first. `source` is `keyword` (the number replied STOP, UNSUBSCRIBE, …; only its own ' +
  'START ends it) or `api` (PUT …/optouts/{number}). Every send from this client to a listed ' +
  'number is refused with 403 (code recipient_opted_out), nothing charged.';

/**
 * A client's opt-outs (CONTRACT "Two-way messaging": Opt-outs): its owner and the client's own
 * id and secret read and change them (client-or-user scope), as they send.
 */
export function optOutsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/clients/:clientId/optouts',
      {
        schema: {
          operationId: 'listOptOuts',
          tags,
          summary: 'The numbers opted out of this client’s messages',
          description: LIST_DESCRIPTION,
          params: ClientIdParamsSchema,
          querystring: OptOutQuerySchema,
          response: {
            200: OptOutListSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) =>
        service.listOptOuts(
          deps,
          request.params.clientId,
          request.actor.user.id,
          request.query,
        ),
    );

    app.get(
      '/clients/:clientId/optouts.csv',
      {
        schema: {
          operationId: 'exportOptOutsCsv',
          tags,
          summary:
            'The whole opt-out list as CSV (text/csv), newest first: number,source,dateCreated',
          params: ClientIdParamsSchema,
          produces: ['text/csv'],
          response: {
            // A stream: Fastify pipes it as it is, never through the serializer.
            200: z
              .unknown()
              .describe('CSV, a header then one line per opt-out'),
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request, reply) => {
        const lines = await service.optOutsCsv(
          deps,
          request.params.clientId,
          request.actor.user.id,
        );
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="optouts.csv"')
          .header('cache-control', 'no-store')
          .send(Readable.from(lines));
      },
    );

    app.put(
      '/clients/:clientId/optouts/:number',
      {
        schema: {
          operationId: 'putOptOut',
          tags,
          summary:
            'Opt a number out of this client’s messages (source api): sends to it are refused, its scheduled messages cancelled and refunded',
          description:
            'Idempotent: answers the opt-out as it stands (a number that opted out by STOP stays ' +
            '`keyword`). The number is cleaned as a send cleans its recipient. Its SCHEDULED ' +
            'messages become CANCELED, each refunded once. Needs ROLE_SMS_CREATE.',
          params: OptOutParamsSchema,
          response: {
            200: OptOutSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.putOptOut(
          deps,
          request.actor,
          request.params.clientId,
          request.params.number,
        ),
    );

    app.delete(
      '/clients/:clientId/optouts/:number',
      {
        schema: {
          operationId: 'deleteOptOut',
          tags,
          summary:
            'End an api opt-out (204); one the number made by STOP answers 409, a number not opted out 404',
          description:
            'Sends to the number are allowed again from the moment this answers. Needs ROLE_SMS_CREATE.',
          params: OptOutParamsSchema,
          response: {
            204: NoContentSchema,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request, reply) => {
        await service.deleteOptOut(
          deps,
          request.actor,
          request.params.clientId,
          request.params.number,
        );
        return reply.code(204).send();
      },
    );
  };
}

/** Staff read any client's opt-outs (ROLE_CLIENT_VIEW, as its message log). */
export function adminOptOutsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/clients/:clientId/optouts',
      {
        config: { role: { family: 'CLIENT', verb: 'VIEW' } },
        schema: {
          operationId: 'adminListOptOuts',
          tags: ['admin: opt-outs'],
          summary: 'The numbers opted out of any client’s messages',
          description: LIST_DESCRIPTION,
          params: ClientIdParamsSchema,
          querystring: OptOutQuerySchema,
          response: {
            200: OptOutListSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.listOptOuts(deps, request.params.clientId, null, request.query),
    );
  };
}
