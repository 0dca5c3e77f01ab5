import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BatchListQuerySchema,
  BatchListSchema,
  BatchSchema,
  CreateBatchSchema,
  CreatedBatchSchema,
  MAX_BATCH_RECIPIENTS,
} from '../../../shared/schemas/campaigns.ts';
import {
  ClientIdParamsSchema,
  IdSchema,
} from '../../../shared/schemas/common.ts';
import type { Deps } from '../../deps.ts';
import { idempotencyKey } from '../../idempotency.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['batches'];
const BatchParamsSchema = z.object({
  clientId: IdSchema,
  batchId: IdSchema,
});
/**
 * 10,000 recipients do not fit the API's usual 64 KiB (about 16 bytes each as JSON); 2 MiB
 * leaves room for numbers written with spaces and dashes, and a long body.
 */
const BATCH_BODY_LIMIT = 2 * 1024 * 1024;
const BATCH_DESCRIPTION =
  '`states` counts its messages by state, live (GET …/messages?batchId= lists them).';

/**
 * Sending one body to many recipients from one of my clients, and following its batches; an API
 * client may do both for itself (client-or-user scope).
 */
export function batchesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/clients/:clientId/batches',
      {
        bodyLimit: BATCH_BODY_LIMIT,
        schema: {
          operationId: 'createBatch',
          tags,
          summary: `Send one body to 1 to ${MAX_BATCH_RECIPIENTS.toLocaleString('en')} recipients, all or nothing`,
          description:
            'Each recipient is cleaned and checked as the single send does, and duplicates ' +
            '(after clean-up) are sent once. Any malformed recipient answers 400 listing (up to ' +
            '20) bad entries with their index in `recipients` (from 0); any blocked or ' +
            'not-allowed destination, or recipient opted out of this client (code ' +
            'recipient_opted_out when only such), 403 listing them; a total beyond the balance 402. In each ' +
            'case nothing is charged or created. Otherwise every message is priced as the ' +
            'single send prices it, the total is debited once (one ledger row per message), and ' +
            'the batch, its messages and their delivery jobs are written in one transaction. ' +
            'Without `sender`, the provider short name. With `sendAt` the messages stay ' +
            'SCHEDULED until then (charged now). Needs ROLE_SMS_CREATE. `Idempotency-Key` works ' +
            'as on the single send.',
          params: ClientIdParamsSchema,
          body: CreateBatchSchema,
          response: {
            201: CreatedBatchSchema,
            ...errorResponses(400, 401, 402, 403, 404, 422),
          },
        },
      },
      async (request, reply) => {
        const { batch, replayed } = await service.createBatch(
          deps,
          request.actor,
          request.params.clientId,
          request.body,
          idempotencyKey(request),
        );
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply.code(201).send(batch);
      },
    );

    app.get(
      '/clients/:clientId/batches',
      {
        schema: {
          operationId: 'listBatches',
          tags,
          summary: "A client's batches, newest first",
          description: BATCH_DESCRIPTION,
          params: ClientIdParamsSchema,
          querystring: BatchListQuerySchema,
          response: {
            200: BatchListSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) =>
        service.listBatches(
          deps,
          request.params.clientId,
          request.actor.user.id,
          request.query,
        ),
    );

    app.get(
      '/clients/:clientId/batches/:batchId',
      {
        schema: {
          operationId: 'getBatch',
          tags,
          summary: 'One batch of a client, with its messages counted by state',
          description: BATCH_DESCRIPTION,
          params: BatchParamsSchema,
          response: {
            200: BatchSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) =>
        service.getBatch(
          deps,
          request.params.clientId,
          request.actor.user.id,
          request.params.batchId,
        ),
    );

    app.post(
      '/clients/:clientId/batches/:batchId/cancel',
      {
        schema: {
          operationId: 'cancelBatch',
          tags,
          summary:
            'Cancel the messages of a batch not yet taken by a provider (each refunded once)',
          description:
            'Its messages not yet taken by a provider (SCHEDULED, or ACCEPTED and waiting, as ' +
            'in a paced batch) become CANCELED and are refunded through the ledger, each exactly ' +
            'once; messages being submitted at that moment or already submitted are not ' +
            'touched. Answers the batch. Needs ROLE_SMS_CREATE.',
          params: BatchParamsSchema,
          response: {
            200: BatchSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.cancelBatch(
          deps,
          request.actor,
          request.params.clientId,
          request.params.batchId,
        ),
    );
  };
}

/** Any client's batches, for staff (admin scope, ROLE_CLIENT_ADMIN or ROLE_CLIENT_VIEW). */
export function adminBatchesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    const role = { family: 'CLIENT', verb: 'VIEW' } as const;
    app.get(
      '/clients/:clientId/batches',
      {
        config: { role },
        schema: {
          operationId: 'adminListBatches',
          tags: ['admin: batches'],
          summary: "Any client's batches, newest first",
          description: BATCH_DESCRIPTION,
          params: ClientIdParamsSchema,
          querystring: BatchListQuerySchema,
          response: {
            200: BatchListSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.listBatches(deps, request.params.clientId, null, request.query),
    );

    app.get(
      '/clients/:clientId/batches/:batchId',
      {
        config: { role },
        schema: {
          operationId: 'adminGetBatch',
          tags: ['admin: batches'],
          summary:
            'One batch of any client, with its messages counted by state',
          description: BATCH_DESCRIPTION,
          params: BatchParamsSchema,
          response: {
            200: BatchSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.getBatch(
          deps,
          request.params.clientId,
          null,
          request.params.batchId,
        ),
    );
  };
}
