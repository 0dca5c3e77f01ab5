import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '../../../shared/schemas/common.ts';
import {
  RoleInputSchema,
  UserRoleListSchema,
} from '../../../shared/schemas/roles.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['admin: roles'];

/** A user's roles, for admins. Only catalogue names are accepted ('Invalid role' otherwise). */
export function adminRolesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users/:id/roles',
      {
        config: { role: { family: 'USERROLE', verb: 'LIST' } },
        schema: {
          tags,
          summary: "A user's roles, sorted alphabetically",
          params: IdParamsSchema,
          response: {
            200: UserRoleListSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => ({
        roles: await service.listRoles(deps, request.params.id),
      }),
    );

    app.post(
      '/users/:id/roles/add',
      {
        config: { role: { family: 'USERROLE', verb: 'CREATE' } },
        schema: {
          tags,
          summary: 'Grant a role; answers the updated list',
          params: IdParamsSchema,
          body: RoleInputSchema,
          response: {
            200: UserRoleListSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => ({
        roles: await service.addRole(
          deps,
          request.params.id,
          request.body.role,
        ),
      }),
    );

    app.put(
      '/users/:id/roles/remove',
      {
        config: { role: { family: 'USERROLE', verb: 'DELETE' } },
        schema: {
          tags,
          summary: 'Take a role away; answers the updated list',
          params: IdParamsSchema,
          body: RoleInputSchema,
          response: {
            200: UserRoleListSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => ({
        roles: await service.removeRole(
          deps,
          request.params.id,
          request.body.role,
        ),
      }),
    );
  };
}
