import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEFAULT_PAGE_SIZE } from '../../../shared/limits.ts';
import {
  IdParamsSchema,
  pagingSchema,
  SearchTextSchema,
} from '../../../shared/schemas/common.ts';
import {
  UpdateUserSchema,
  UserListSchema,
  UserSchema,
} from '../../../shared/schemas/users.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['admin: users'];
const AdminUserQuerySchema = pagingSchema(DEFAULT_PAGE_SIZE).extend({
  q: SearchTextSchema,
});

/** Every user's profile, for admins. */
export function adminUsersRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users',
      {
        config: { role: { family: 'USER', verb: 'LIST' } },
        schema: {
          operationId: 'adminListUsers',
          tags,
          summary:
            'List users, newest first; `q` searches e-mail, names and organization (any case)',
          querystring: AdminUserQuerySchema,
          response: { 200: UserListSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const { q, ...page } = request.query;
        return { ...(await service.listUsers(deps, { q }, page)), ...page };
      },
    );

    app.get(
      '/users/:id',
      {
        config: { role: { family: 'USER', verb: 'VIEW' } },
        schema: {
          operationId: 'adminGetUser',
          tags,
          summary: 'Get a user',
          params: IdParamsSchema,
          response: {
            200: UserSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => service.getUser(deps, request.params.id),
    );

    app.put(
      '/users/:id',
      {
        config: { role: { family: 'USER', verb: 'UPDATE' } },
        schema: {
          operationId: 'adminUpdateUser',
          tags,
          summary: "Update a user's profile (409 when the e-mail is taken)",
          params: IdParamsSchema,
          body: UpdateUserSchema,
          response: {
            200: UserSchema,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) =>
        service.updateProfile(
          deps,
          request.actor,
          request.params.id,
          request.body,
        ),
    );
  };
}
