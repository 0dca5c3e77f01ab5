import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEFAULT_PAGE_SIZE } from '../../../shared/limits.ts';
import {
  AdminCreateClientSchema,
  CancelClientMessagesSchema,
  CanceledCountSchema,
  ClientListSchema,
  ClientSchema,
  ClientWithSecretSchema,
  UpdateClientSchema,
} from '../../../shared/schemas/clients.ts';
import {
  ClientIdParamsSchema,
  IdSchema,
  pagingSchema,
  SearchTextSchema,
} from '../../../shared/schemas/common.ts';
import { ClientLimitsSchema } from '../../../shared/schemas/prices.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['admin: clients'];
const AdminClientQuerySchema = pagingSchema(DEFAULT_PAGE_SIZE).extend({
  userId: IdSchema.optional(),
  q: SearchTextSchema,
});

/** Every user's clients, for admins; the same rules as the customer calls (limit of 30). */
export function adminClientsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/clients',
      {
        config: { role: { family: 'CLIENT', verb: 'CREATE' } },
        schema: {
          operationId: 'adminCreateClient',
          tags,
          summary:
            'Create a client for a user; the secret is shown only in this answer',
          body: AdminCreateClientSchema,
          response: {
            201: ClientWithSecretSchema,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await service.createClient(deps, request.actor, request.body)),
    );

    app.put(
      '/clients/:clientId',
      {
        config: { role: { family: 'CLIENT', verb: 'UPDATE' } },
        schema: {
          operationId: 'adminUpdateClient',
          tags,
          summary: 'Rename any client',
          params: ClientIdParamsSchema,
          body: UpdateClientSchema,
          response: {
            200: ClientSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.renameClient(
          deps,
          request.actor,
          request.params.clientId,
          request.body.name,
        ),
    );

    app.put(
      '/clients/:clientId/limits',
      {
        config: { role: { family: 'CLIENT', verb: 'ADMIN' } },
        schema: {
          operationId: 'adminSetClientLimits',
          tags,
          summary:
            "Set a client's allowed destinations and messages a second (null clears)",
          description:
            '`allowedPrefixes`: the prefixes the client may send to (a recipient is inside when ' +
            'its digits start with one), or null for every open destination. ' +
            '`maxMessagesPerSecond`: a positive integer, or null for no limit. Each is optional: ' +
            'what is left out is kept. Needs ROLE_CLIENT_ADMIN; audited as client.limits_changed.',
          params: ClientIdParamsSchema,
          body: ClientLimitsSchema,
          response: {
            200: ClientSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.setClientLimits(
          deps,
          request.actor,
          request.params.clientId,
          request.body,
        ),
    );

    app.post(
      '/clients/:clientId/messages/cancel',
      {
        config: { role: { family: 'CLIENT', verb: 'ADMIN' } },
        schema: {
          operationId: 'adminCancelClientMessages',
          tags,
          summary:
            "Stop a client's traffic: cancel its messages not yet taken by a provider",
          description:
            'Every message of the client (or, with `batchId`, of that batch of the client) not ' +
            'yet taken by a provider (SCHEDULED, or ACCEPTED and not being submitted at that ' +
            'moment) becomes CANCELED and is refunded once through the ledger. A message a ' +
            'delivery worker holds at that moment is sent as usual. Needs ROLE_CLIENT_ADMIN; ' +
            'audited as client.messages_canceled.',
          params: ClientIdParamsSchema,
          body: CancelClientMessagesSchema,
          response: {
            200: CanceledCountSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.cancelClientMessages(
          deps,
          request.actor,
          request.params.clientId,
          request.body?.batchId ?? null,
        ),
    );

    app.get(
      '/clients',
      {
        config: { role: { family: 'CLIENT', verb: 'LIST' } },
        schema: {
          operationId: 'adminListClients',
          tags,
          summary:
            "List every client, or one user's, newest first; `q` searches the name (any case) or the exact id",
          querystring: AdminClientQuerySchema,
          response: { 200: ClientListSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const { userId, q, ...page } = request.query;
        return {
          ...(await service.searchClients(deps, { userId, q }, page)),
          ...page,
        };
      },
    );

    app.get(
      '/clients/:clientId',
      {
        config: { role: { family: 'CLIENT', verb: 'VIEW' } },
        schema: {
          operationId: 'adminGetClient',
          tags,
          summary: 'Get any client',
          params: ClientIdParamsSchema,
          response: {
            200: ClientSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => service.getClient(deps, request.params.clientId),
    );
  };
}
