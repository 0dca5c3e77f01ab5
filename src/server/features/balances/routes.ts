import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BalanceSchema,
  FreeCreditSchema,
} from '../../../shared/schemas/balances.ts';
import { IdParamsSchema, IdSchema } from '../../../shared/schemas/common.ts';
import { actorOf, ownerOfClientCall } from '../../auth/scopes.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['balances'];
const ClientParamsSchema = z.object({ clientId: IdSchema });
const CreditParamsSchema = z.object({
  clientId: IdSchema,
  balanceId: IdSchema,
});

/** The balance of one of my clients; an API client may read its own (client-or-user scope). */
export function balancesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/clients/:id/balances/default',
      {
        schema: {
          tags,
          summary:
            "A client's default balance (user credentials, or that client's id and secret)",
          params: IdParamsSchema,
          response: {
            200: BalanceSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) => {
        const { id } = request.params;
        return service.getDefaultBalance(
          deps,
          id,
          ownerOfClientCall(request, id),
        );
      },
    );
  };
}

/** Any client's balance, and free credit; registered in the admin scope. */
export function adminBalancesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/clients/:clientId/balances/default',
      {
        config: { role: { family: 'CLIENT', verb: 'VIEW' } },
        schema: {
          tags,
          summary: "Any client's default balance",
          params: ClientParamsSchema,
          response: {
            200: BalanceSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.getDefaultBalance(deps, request.params.clientId),
    );

    app.post(
      '/clients/:clientId/balances/:balanceId/freecredit',
      {
        config: { role: { family: 'CLIENT', verb: 'UPDATE' } },
        schema: {
          tags,
          summary:
            'Add free credit (a positive decimal, at most 4 places); recorded in the ledger',
          params: CreditParamsSchema,
          body: FreeCreditSchema,
          response: {
            200: BalanceSchema,
            ...errorResponses(400, 401, 403, 404, 422),
          },
        },
      },
      async (request) =>
        service.grantFreeCredit(deps, actorOf(request), {
          ...request.params,
          amount: request.body.amount,
        }),
    );
  };
}
