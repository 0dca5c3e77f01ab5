import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BalanceSchema,
  FreeCreditSchema,
  LedgerCsvQuerySchema,
  LedgerQuerySchema,
  LedgerSchema,
  UpdateBalanceSchema,
  UsageQuerySchema,
  UsageSchema,
} from '../../../shared/schemas/balances.ts';
import {
  ClientIdParamsSchema,
  IdSchema,
} from '../../../shared/schemas/common.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['balances'];
const BalanceParamsSchema = z.object({
  clientId: IdSchema,
  balanceId: IdSchema,
});

/** The balance of one of my clients; an API client may read its own (client-or-user scope). */
export function balancesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/clients/:clientId/balances/default',
      {
        schema: {
          operationId: 'getBalance',
          tags,
          summary:
            "A client's default balance (user credentials, or that client's id and secret)",
          description:
            "Its id is the client's id. `amount` is exact (at most 4 decimal places) in " +
            '`currency`; a send is refused with 402 (insufficient_balance) when it is lower than ' +
            "the send's price. `minThreshold` is the level below which the owner is warned.",
          params: ClientIdParamsSchema,
          response: {
            200: BalanceSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) =>
        service.getDefaultBalance(
          deps,
          request.params.clientId,
          request.actor.user.id,
        ),
    );

    app.get(
      '/clients/:clientId/balances/default/ledger',
      {
        schema: {
          operationId: 'listLedgerEntries',
          tags,
          summary:
            "A client's ledger, newest first: every credit, debit and refund with the balance after it",
          description:
            '`amount` is signed: FREE_CREDIT and REFUND positive, SMS negative (one entry per ' +
            'message, with its recipient, segments and price). Filters: kind, since and until ' +
            '(ISO 8601; until exclusive).',
          params: ClientIdParamsSchema,
          querystring: LedgerQuerySchema,
          response: {
            200: LedgerSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) => {
        const { clientId } = request.params;
        const { count, offset, ...filter } = request.query;
        const page = { count, offset };
        return {
          ...(await service.getLedger(
            deps,
            clientId,
            request.actor.user.id,
            filter,
            page,
          )),
          ...page,
        };
      },
    );

    app.get(
      '/clients/:clientId/balances/default/ledger.csv',
      {
        schema: {
          operationId: 'exportLedgerCsv',
          tags,
          summary:
            "A client's whole ledger as CSV (text/csv), newest first, with the same filters",
          params: ClientIdParamsSchema,
          querystring: LedgerCsvQuerySchema,
          produces: ['text/csv'],
          response: {
            // A stream: Fastify pipes it as it is, never through the serializer.
            200: z.unknown().describe('CSV, a header then one line per entry'),
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request, reply) => {
        const { clientId } = request.params;
        const lines = await service.ledgerCsv(
          deps,
          clientId,
          request.actor.user.id,
          request.query,
        );
        return reply
          .type('text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="ledger-${clientId}.csv"`,
          )
          .send(Readable.from(lines));
      },
    );

    app.get(
      '/clients/:clientId/balances/default/usage',
      {
        schema: {
          operationId: 'getUsage',
          tags,
          summary:
            'Messages, segments and amount spent per UTC day (default the last 30 days)',
          params: ClientIdParamsSchema,
          querystring: UsageQuerySchema,
          response: {
            200: UsageSchema,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) => {
        const { clientId } = request.params;
        return service.getUsage(
          deps,
          clientId,
          request.actor.user.id,
          request.query,
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
          operationId: 'adminGetBalance',
          tags,
          summary: "Any client's default balance",
          params: ClientIdParamsSchema,
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
          operationId: 'adminAddFreeCredit',
          tags,
          summary:
            'Add free credit (a positive decimal, at most 4 places) with an optional reason; recorded in the ledger',
          params: BalanceParamsSchema,
          body: FreeCreditSchema,
          response: {
            200: BalanceSchema,
            ...errorResponses(400, 401, 403, 404, 422),
          },
        },
      },
      async (request) =>
        service.grantFreeCredit(deps, request.actor, {
          ...request.params,
          ...request.body,
        }),
    );

    app.put(
      '/clients/:clientId/balances/:balanceId',
      {
        config: { role: { family: 'CLIENT', verb: 'UPDATE' } },
        schema: {
          operationId: 'adminUpdateBalance',
          tags,
          summary:
            'Set the low-balance warning level `minThreshold` (a decimal ≥ 0, at most 4 places)',
          params: BalanceParamsSchema,
          body: UpdateBalanceSchema,
          response: {
            200: BalanceSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        service.setThreshold(deps, request.actor, {
          ...request.params,
          ...request.body,
        }),
    );
  };
}
