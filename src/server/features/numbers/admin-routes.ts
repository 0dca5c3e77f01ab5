import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClientIdParamsSchema } from '../../../shared/schemas/common.ts';
import {
  ClientNumbersSchema,
  NumberListQuerySchema,
  NumberListSchema,
  NumberParamsSchema,
  NumberSchema,
  PutNumberSchema,
} from '../../../shared/schemas/numbers.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses, NoContentSchema } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['admin: numbers'];
const role = { family: 'NUMBER', verb: 'ADMIN' } as const;

/**
 * The inbound numbers, kept by staff holding ROLE_NUMBER_ADMIN; a client's numbers are also
 * read with the client (ROLE_CLIENT_ADMIN or ROLE_CLIENT_VIEW), as its messages are.
 */
export function adminNumbersRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/numbers',
      {
        config: { role },
        schema: {
          operationId: 'adminListNumbers',
          tags,
          summary: 'Every inbound number and the client holding it',
          description:
            'Newest first (ties by number). `q`: numbers starting with it, or whose help text ' +
            'holds it (case-insensitive); `clientId`: the numbers of one client.',
          querystring: NumberListQuerySchema,
          response: {
            200: NumberListSchema,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) => service.listNumbers(deps, request.query),
    );

    app.put(
      '/numbers/:number',
      {
        config: { role },
        schema: {
          operationId: 'adminAssignNumber',
          tags,
          summary:
            'Assign a number to a client: creates it, or moves it from the client holding it',
          description:
            'A number is 3 to 15 digits without `+`. Inbound messages to it belong to this ' +
            'client from now on; the client that held it no longer lists it. `helpText` (absent ' +
            'or blank: none, HELP_REPLY answers) is the answer to HELP and INFO; `dateCreated` ' +
            'restarts when the holder changes. Audited as `number.assigned` (only what changed; ' +
            'nothing when nothing did). Unknown client: 404.',
          params: NumberParamsSchema,
          body: PutNumberSchema,
          response: {
            200: NumberSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.assignNumber(
          deps,
          request.actor,
          request.params.number,
          request.body,
        ),
    );

    app.delete(
      '/numbers/:number',
      {
        config: { role },
        schema: {
          operationId: 'adminReleaseNumber',
          tags,
          summary: 'Release a number from its client',
          description:
            'Inbound messages to it are then acknowledged and dropped (unrouted); those already ' +
            'received stay with the client. Audited as `number.released`. 404 when nobody ' +
            'holds it.',
          params: NumberParamsSchema,
          response: {
            204: NoContentSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        await service.releaseNumber(deps, request.actor, request.params.number);
        return reply.code(204).send();
      },
    );

    app.get(
      '/clients/:clientId/numbers',
      {
        config: { role: { family: 'CLIENT', verb: 'VIEW' } },
        schema: {
          operationId: 'adminListClientNumbers',
          tags,
          summary: "Any client's numbers, by number",
          params: ClientIdParamsSchema,
          response: {
            200: ClientNumbersSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.clientNumbers(deps, request.params.clientId, null),
    );
  };
}
