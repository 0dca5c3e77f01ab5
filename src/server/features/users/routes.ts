import {
  serializerCompiler,
  type FastifyPluginAsyncZod,
} from 'fastify-type-provider-zod';
import {
  ChangePasswordSchema,
  MyUserSchema,
  type MyUser,
  RegisterSchema,
  UpdateUserSchema,
  UserSchema,
  type User,
} from '../../../shared/schemas/users.ts';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../errors.ts';
import { errorResponses, NoContentSchema } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['users'];

/**
 * Public: anyone may register, up to REGISTER_LIMIT a minute from one address: each one costs
 * a KDF run and a row, so a script cannot fill the database or keep the CPU busy (987 accounts
 * in 12 s before this limit).
 */
export function registerRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/register',
      {
        // After validation: a malformed form does not use up the allowance.
        preHandler: async (request) => {
          const wait = deps.registrations.take([
            { key: request.ip, limit: deps.config.registerLimit },
          ]);
          if (wait > 0) {
            throw new HttpError(
              429,
              'Too many registrations from this address. Try again later.',
              { 'retry-after': String(wait) },
            );
          }
        },
        schema: {
          operationId: 'registerUser',
          tags,
          summary: 'Register a new user (no authorization)',
          security: [],
          body: RegisterSchema,
          response: { 201: UserSchema, ...errorResponses(400, 409, 429) },
        },
      },
      async (request, reply) => {
        const user = await service.createUser(deps.db, request.body);
        return reply.code(201).send(user);
      },
    );
  };
}

/** What the route's own serialiser writes for a MyUser (checked against the schema, then JSON). */
const serializeMyUser = serializerCompiler({
  schema: MyUserSchema,
  method: 'GET',
  url: '/api/users/me',
}) as (user: MyUser) => string;

/**
 * The signed-in user's own profile and password.
 *
 * GET /users/me answers from the verified principal, whose `user` and `roles` objects are the
 * credential cache's: never changed in place, replaced (the entry dropped) when the user, their
 * password or their roles change. So the answer is serialised once per principal and replayed
 * while the credential stays cached, instead of checked against the schema and written again on
 * every call; a new `user` or `roles` object is serialised afresh.
 */
export function meRoutes(deps: Deps): FastifyPluginAsyncZod {
  const answers = new WeakMap<User, { roles: string[]; body: string }>();
  return async (app) => {
    app.get(
      '/users/me',
      {
        schema: {
          operationId: 'getMe',
          tags,
          summary: 'The signed-in user, with their roles',
          response: { 200: MyUserSchema, ...errorResponses(401, 403) },
        },
        // A few hundred bytes out (compression starts at 1 KB), no body in: the compression
        // plugin's three hooks would run on every call for nothing.
        compress: false,
        decompress: false,
      },
      // Served from the verified principal: every change to it drops the cached credentials.
      (request, reply) => {
        const { user, roles } = request.actor;
        let answer = answers.get(user);
        if (answer?.roles !== roles) {
          answer = { roles, body: serializeMyUser({ ...user, roles }) };
          answers.set(user, answer);
        }
        // A string with a JSON content type is sent as it is.
        void reply
          .type('application/json; charset=utf-8')
          .send(answer.body as never);
      },
    );

    app.put(
      '/users/me',
      {
        schema: {
          operationId: 'updateMe',
          tags,
          summary: 'Update my profile',
          body: UpdateUserSchema,
          response: { 200: UserSchema, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request) =>
        service.updateProfile(
          deps,
          request.actor,
          request.actor.user.id,
          request.body,
        ),
    );

    app.put(
      '/users/me/password',
      {
        schema: {
          operationId: 'changeMyPassword',
          tags,
          summary:
            'Change my password (400: invalid new password, 422: wrong current password)',
          body: ChangePasswordSchema,
          response: {
            204: NoContentSchema,
            ...errorResponses(400, 401, 403, 422),
          },
        },
      },
      async (request, reply) => {
        await service.changePassword(deps, request.actor, request.body);
        return reply.code(204).send();
      },
    );
  };
}
