import type { FastifyPluginAsync } from 'fastify';
import {
  adminScope,
  clientOrUserScope,
  publicScope,
  signedInScope,
  userScope,
} from './auth/scopes.ts';
import type { Deps } from './deps.ts';
import { adminAuditRoutes } from './features/audit/routes.ts';
import {
  adminBatchesRoutes,
  batchesRoutes,
} from './features/batches/routes.ts';
import {
  adminBalancesRoutes,
  balancesRoutes,
} from './features/balances/routes.ts';
import { adminClientsRoutes } from './features/clients/admin-routes.ts';
import {
  adminInboundRoutes,
  inboundRoutes,
} from './features/inbound/routes.ts';
import { adminNumbersRoutes } from './features/numbers/admin-routes.ts';
import { numbersRoutes } from './features/numbers/routes.ts';
import { clientsRoutes } from './features/clients/routes.ts';
import {
  adminMessagesRoutes,
  messagesRoutes,
} from './features/messages/routes.ts';
import { adminOperationsRoutes } from './features/operations/admin-routes.ts';
import {
  adminOptOutsRoutes,
  optOutsRoutes,
} from './features/optouts/routes.ts';
import { operationsRoutes } from './features/operations/routes.ts';
import { adminRolesRoutes } from './features/roles/routes.ts';
import { adminPricesRoutes } from './features/prices/admin-routes.ts';
import { pricesRoutes } from './features/prices/routes.ts';
import { routeSplitsRoutes } from './features/route-splits/routes.ts';
import { adminUsersRoutes } from './features/users/admin-routes.ts';
import { meRoutes, registerRoutes } from './features/users/routes.ts';
import { webhooksRoutes } from './features/webhooks/routes.ts';

/**
 * Every /api route, by scope: the scope a route is registered in decides who may call it
 * (src/server/auth/scopes.ts). A test walks the registered routes and checks each scope's rule.
 */
export function apiRoutes(deps: Deps): FastifyPluginAsync {
  return async (api) => {
    await api.register(async (scope) => {
      publicScope(scope);
      await scope.register(operationsRoutes(deps));
      await scope.register(registerRoutes(deps));
      await scope.register(webhooksRoutes(deps));
    });

    await api.register(async (scope) => {
      userScope(scope, deps);
      await scope.register(meRoutes(deps));
      await scope.register(clientsRoutes(deps));

      await scope.register(
        async (admin) => {
          adminScope(admin);
          await admin.register(adminClientsRoutes(deps));
          await admin.register(adminBalancesRoutes(deps));
          await admin.register(adminMessagesRoutes(deps));
          await admin.register(adminBatchesRoutes(deps));
          await admin.register(routeSplitsRoutes(deps));
          await admin.register(adminUsersRoutes(deps));
          await admin.register(adminRolesRoutes(deps));
          await admin.register(adminAuditRoutes(deps));
          await admin.register(adminOperationsRoutes(deps));
          await admin.register(adminPricesRoutes(deps));
          await admin.register(adminOptOutsRoutes(deps));
          await admin.register(adminNumbersRoutes(deps));
          await admin.register(adminInboundRoutes(deps));
        },
        { prefix: '/admin' },
      );
    });

    await api.register(async (scope) => {
      clientOrUserScope(scope, deps);
      await scope.register(balancesRoutes(deps));
      await scope.register(messagesRoutes(deps));
      await scope.register(batchesRoutes(deps));
      await scope.register(optOutsRoutes(deps));
      await scope.register(numbersRoutes(deps));
      await scope.register(inboundRoutes(deps));
    });

    await api.register(async (scope) => {
      signedInScope(scope, deps);
      await scope.register(pricesRoutes(deps));
    });
  };
}
