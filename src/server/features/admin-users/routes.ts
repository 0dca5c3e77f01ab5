import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CLIENT_PAGE_SIZE } from '../../../shared/limits.ts';
import {
  IdParamsSchema,
  pagingSchema,
} from '../../../shared/schemas/common.ts';
import {
  UpdateUserSchema,
  UserListSchema,
  UserSchema,
} from '../../../shared/schemas/users.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { errorResponses } from '../../schemas.ts';
import * as usersRepo from '../users/repo.ts';
import { updateProfile } from '../users/service.ts';

const tags = ['admin: users'];

/** Every user's profile, for admins. */
export function adminUsersRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users',
      {
        config: { role: { family: 'USER', verb: 'LIST' } },
        schema: {
          tags,
          summary: 'List users',
          querystring: pagingSchema(CLIENT_PAGE_SIZE),
          response: { 200: UserListSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => ({
        ...(await usersRepo.listUsers(deps.db, request.query)),
        ...request.query,
      }),
    );

    app.get(
      '/users/:id',
      {
        config: { role: { family: 'USER', verb: 'VIEW' } },
        schema: {
          tags,
          summary: 'Get a user',
          params: IdParamsSchema,
          response: {
            200: UserSchema,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => {
        const user = await usersRepo.findUserById(deps.db, request.params.id);
        if (!user) throw notFound('User');
        return user;
      },
    );

    app.put(
      '/users/:id',
      {
        config: { role: { family: 'USER', verb: 'UPDATE' } },
        schema: {
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
      // updateProfile also drops the user's cached credentials: the e-mail is part of them.
      async (request) => updateProfile(deps, request.params.id, request.body),
    );
  };
}
