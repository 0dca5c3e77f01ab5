import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RoleVerb } from '../../../shared/roles.ts';
import { IdParamsSchema } from '../../../shared/schemas/common.ts';
import {
  RoleInputSchema,
  UserRoleListSchema,
} from '../../../shared/schemas/roles.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['admin: roles'];
const answers = {
  200: UserRoleListSchema,
  ...errorResponses(400, 401, 403, 404),
};

/** Options of the add and remove routes: the same body and answer, a different verb role. */
function roleChange(verb: RoleVerb, operationId: string, summary: string) {
  return {
    config: { role: { family: 'USERROLE' as const, verb } },
    schema: {
      operationId,
      tags,
      summary,
      params: IdParamsSchema,
      body: RoleInputSchema,
      response: answers,
    },
  };
}

/** A user's roles, for admins. Only catalogue names are accepted ('Invalid role' otherwise). */
export function adminRolesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users/:id/roles',
      {
        config: { role: { family: 'USERROLE', verb: 'LIST' } },
        schema: {
          operationId: 'adminListUserRoles',
          tags,
          summary: "A user's roles, sorted alphabetically",
          params: IdParamsSchema,
          response: answers,
        },
      },
      async (request) => ({
        roles: await service.listRoles(deps, request.params.id),
      }),
    );

    app.post(
      '/users/:id/roles/add',
      roleChange(
        'CREATE',
        'adminAddUserRole',
        'Grant a role; answers the updated list',
      ),
      async (request) => ({
        roles: await service.changeRole(deps, request.actor, {
          userId: request.params.id,
          role: request.body.role,
          change: 'add',
        }),
      }),
    );

    app.put(
      '/users/:id/roles/remove',
      roleChange(
        'DELETE',
        'adminRemoveUserRole',
        'Take a role away; answers the updated list',
      ),
      async (request) => ({
        roles: await service.changeRole(deps, request.actor, {
          userId: request.params.id,
          role: request.body.role,
          change: 'remove',
        }),
      }),
    );
  };
}
