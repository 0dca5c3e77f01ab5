import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OperationsSchema } from '../../../shared/schemas/operations.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['admin: operations'];

/** The Operations screen's call; registered in the admin scope. */
export function adminOperationsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/operations',
      {
        config: { role: { family: 'OPERATIONS', verb: 'VIEW' } },
        schema: {
          operationId: 'adminGetOperations',
          tags,
          summary:
            "Per delivery method: the last hour's messages by state, submit latency, bind state, inbound messages; the queue depth",
          response: {
            200: OperationsSchema,
            ...errorResponses(401, 403),
          },
        },
      },
      async () => service.operations(deps, app.delivery),
    );
  };
}
