import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEFAULT_PAGE_SIZE } from '../../../shared/limits.ts';
import {
  ClientListSchema,
  ClientWithSecretSchema,
  CreateClientSchema,
  OwnClientSchema,
  ResetSecretSchema,
  RotatedSigningKeySchema,
  StatusCallbackTestSchema,
  UpdateOwnClientSchema,
} from '../../../shared/schemas/clients.ts';
import {
  ClientIdParamsSchema,
  pagingSchema,
} from '../../../shared/schemas/common.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses, NoContentSchema } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['clients'];

/** The signed-in user's own API clients; another user's client ids answer 404. */
export function clientsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/clients',
      {
        schema: {
          operationId: 'createClient',
          tags,
          summary:
            'Create an API client; the secret is shown only in this answer',
          description:
            "The client's id and secret are HTTP Basic credentials for that client's balance, " +
            'messages and batches. Store the secret now: it is never shown again ' +
            '(resetClientSecret replaces it). At most 30 clients a user (409 client_limit_reached).',
          body: CreateClientSchema,
          response: {
            201: ClientWithSecretSchema,
            ...errorResponses(400, 401, 403, 409),
          },
        },
      },
      async (request, reply) => {
        const { user } = request.actor;
        return reply.code(201).send(
          await service.createClient(deps, request.actor, {
            userId: user.id,
            name: request.body.name,
          }),
        );
      },
    );

    app.get(
      '/clients',
      {
        schema: {
          operationId: 'listClients',
          tags,
          summary: 'List my clients',
          querystring: pagingSchema(DEFAULT_PAGE_SIZE),
          response: { 200: ClientListSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const { user } = request.actor;
        const page = request.query;
        return {
          ...(await service.listClients(deps, { userId: user.id }, page)),
          ...page,
        };
      },
    );

    app.get(
      '/clients/:clientId',
      {
        schema: {
          operationId: 'getClient',
          tags,
          summary:
            'Get one of my clients, with its status callback URL and signing key',
          params: ClientIdParamsSchema,
          response: {
            200: OwnClientSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => {
        return service.getOwnClient(
          deps,
          request.params.clientId,
          request.actor.user.id,
        );
      },
    );

    app.put(
      '/clients/:clientId',
      {
        schema: {
          operationId: 'updateClient',
          tags,
          summary:
            'Rename one of my clients and/or set its status and inbound callback URLs (null removes one)',
          description:
            'statusCallbackUrl: an http(s) URL that gets every state change of the ' +
            "client's messages; inboundCallbackUrl: one that gets every message received on " +
            "the client's numbers. Both are signed with statusCallbackSigningKey (X-Signature). " +
            'Loopback, link-local and private targets, and names resolving to them, are refused.',
          params: ClientIdParamsSchema,
          body: UpdateOwnClientSchema,
          response: {
            200: OwnClientSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => {
        return service.updateOwnClient(
          deps,
          request.actor,
          request.params.clientId,
          request.actor.user.id,
          request.body,
        );
      },
    );

    app.delete(
      '/clients/:clientId',
      {
        schema: {
          operationId: 'deleteClient',
          tags,
          summary: 'Delete one of my clients',
          params: ClientIdParamsSchema,
          response: {
            204: NoContentSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        await service.deleteClient(
          deps,
          request.actor,
          request.params.clientId,
          request.actor.user.id,
        );
        return reply.code(204).send();
      },
    );

    app.post(
      '/clients/:clientId/statusCallback/test',
      {
        schema: {
          operationId: 'testStatusCallback',
          tags,
          summary:
            'Send a signed test event to the status callback URL now, and show the answer',
          description:
            'The event has the contract format with messageId 00000000-0000-0000-0000-000000000000 ' +
            'and state DELIVERED; it is not retried.',
          params: ClientIdParamsSchema,
          response: {
            200: StatusCallbackTestSchema,
            ...errorResponses(400, 401, 403, 404, 429),
          },
        },
      },
      async (request) =>
        service.sendTestCallback(
          deps,
          request.params.clientId,
          request.actor.user.id,
        ),
    );

    app.post(
      '/clients/:clientId/statusCallback/rotateKey',
      {
        schema: {
          operationId: 'rotateStatusCallbackKey',
          tags,
          summary:
            'Replace the status callback signing key; the old one signs nothing afterwards',
          params: ClientIdParamsSchema,
          response: {
            200: RotatedSigningKeySchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.rotateSigningKey(
          deps,
          request.actor,
          request.params.clientId,
          request.actor.user.id,
        ),
    );

    app.post(
      '/clients/:clientId/resetSecret',
      {
        schema: {
          operationId: 'resetClientSecret',
          tags,
          summary:
            'Replace the secret; the new one is shown only in this answer. With graceSeconds, the old one keeps working that long',
          params: ClientIdParamsSchema,
          body: ResetSecretSchema,
          response: {
            200: ClientWithSecretSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => {
        return service.resetSecret(
          deps,
          request.actor,
          request.params.clientId,
          request.actor.user.id,
          request.body?.graceSeconds ?? 0,
        );
      },
    );
  };
}
