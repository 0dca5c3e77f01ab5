import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClientIdParamsSchema } from '../../../shared/schemas/common.ts';
import { ClientNumbersSchema } from '../../../shared/schemas/numbers.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

/**
 * The numbers staff assigned to one of my clients, which receive its inbound messages; an API
 * client reads its own (client-or-user scope), to know what to send from.
 */
export function numbersRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/clients/:clientId/numbers',
      {
        schema: {
          operationId: 'listClientNumbers',
          tags: ['numbers'],
          summary: "A client's inbound numbers, by number",
          description:
            'Staff assign numbers (ROLE_NUMBER_ADMIN); messages sent to them arrive in the ' +
            "client's inbound messages and conversations.",
          params: ClientIdParamsSchema,
          response: {
            200: ClientNumbersSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) =>
        service.clientNumbers(
          deps,
          request.params.clientId,
          request.actor.user.id,
        ),
    );
  };
}
