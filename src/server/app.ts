import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import fastifySwagger from '@fastify/swagger';
import scalarReference from '@scalar/fastify-api-reference';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type FastifyPluginAsyncZod,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PublicConfigSchema } from '../shared/schemas/config.ts';
import { CredentialCache } from './auth/credential-cache.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import type { Principal } from './auth/principal.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/open.ts';
import type { Deps } from './deps.ts';
import { HttpError, pgCode } from './errors.ts';
import { httpServerOptions, limitConnections } from './http-server-options.ts';
import { adminClientsRoutes } from './features/admin-clients/routes.ts';
import { adminUsersRoutes } from './features/admin-users/routes.ts';
import {
  adminBalancesRoutes,
  balancesRoutes,
} from './features/balances/routes.ts';
import { clientsRoutes } from './features/clients/routes.ts';
import { messagesRoutes } from './features/messages/routes.ts';
import { adminRolesRoutes } from './features/roles/routes.ts';
import { routeSplitsRoutes } from './features/route-splits/routes.ts';
import { meRoutes, registerRoutes } from './features/users/routes.ts';
import { ensureBootstrapAdmin } from './features/users/service.ts';
import { authenticate } from './plugins/authenticate.ts';
import { consoleStatic } from './plugins/console.ts';
import { requireRole } from './plugins/require-role.ts';
import { DOCS_CSP, securityHeaders } from './plugins/security-headers.ts';

export const BODY_LIMIT = 64 * 1024;

/** Turns a zod issue path into the field name users know, e.g. `body.recipient`. */
function describeValidation(error: FastifyError): string {
  const issues = error.validation ?? [];
  const messages = issues.map((issue) => {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const where = [error.validationContext, field].filter(Boolean).join('.');
    // zod's default messages do not name the field; ours do ("Sender cannot be empty").
    return /^(Invalid input|Too (big|small)|Unrecognized|Expected|Invalid option)/.test(
      issue.message ?? '',
    )
      ? `${where}: ${issue.message}`
      : (issue.message ?? 'Invalid value');
  });
  return [...new Set(messages)].join('; ') || error.message;
}

function errorBody(statusCode: number, message: string) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Builds the whole server: database opened and migrated, every route registered. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          '*.password',
          '*.currentPassword',
          '*.newPassword',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
    ...httpServerOptions(config),
  });
  limitConnections(app.server, config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = await openDatabase(config);
  app.addHook('onClose', async () => db.close());
  await ensureBootstrapAdmin(db, config.admin);

  const deps: Deps = {
    config,
    db,
    credentials: new CredentialCache<Principal>(),
    throttle: new LoginThrottle(),
  };

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .headers(error.headers)
        .code(error.statusCode)
        .send(errorBody(error.statusCode, error.message));
    }
    // PostgreSQL text cannot hold NUL (22021): such input is the caller's error, not a 500.
    if (pgCode(error) === '22021') {
      return reply
        .code(400)
        .send(errorBody(400, 'Text must not contain NUL characters'));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(errorBody(400, describeValidation(error)));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send(errorBody(status, error.message));
    }
    // Never show internals; the request id ties the answer to the log line.
    request.log.error(
      {
        err: error,
        method: request.method,
        url: request.url,
        params: request.params,
      },
      'request failed',
    );
    return reply
      .code(500)
      .send(errorBody(500, `Internal Server Error (request id ${request.id})`));
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(
        errorBody(
          404,
          `Route ${request.method}:${request.url.split('?')[0]} not found`,
        ),
      ),
  );

  await securityHeaders(app);
  await app.register(import('@fastify/compress'), { threshold: 1024 });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.branding.productName} API`,
        description:
          'Every call except register, health and config takes HTTP Basic authorization: ' +
          "e-mail and password, or an API client id and secret for that client's balance and SMS.",
        version: '1.0.0',
      },
      components: {
        securitySchemes: { basic: { type: 'http', scheme: 'basic' } },
      },
      security: [{ basic: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  await app.register(apiRoutes(deps), { prefix: '/api' });

  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', DOCS_CSP);
    });
    await docs.register(scalarReference, {
      routePrefix: '/api/docs',
      configuration: { url: '/api/openapi.json', hideClientButton: true },
    });
  });

  await consoleStatic(app, config.webDir);
  return app;
}

function apiRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (api) => {
    // Public scope: no authorization.
    api.get(
      '/health',
      {
        schema: {
          tags: ['operations'],
          security: [],
          response: { 200: z.object({ status: z.literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );
    api.get(
      '/config',
      {
        schema: {
          tags: ['operations'],
          summary: 'Branding and prices the console shows',
          security: [],
          response: { 200: PublicConfigSchema },
        },
      },
      async () => ({
        ...deps.config.branding,
        currency: deps.config.currency,
        smsPrice: deps.config.smsPrice,
      }),
    );
    api.get('/openapi.json', { schema: { hide: true } }, async () =>
      api.swagger(),
    );
    await api.register(registerRoutes(deps));

    // Authenticated scope: Basic with e-mail + password, or client id + secret.
    await api.register(async (authed) => {
      authed.addHook('onRequest', authenticate(deps));
      await authed.register(meRoutes(deps));
      await authed.register(clientsRoutes(deps));
      await authed.register(balancesRoutes(deps));
      await authed.register(messagesRoutes(deps));

      // Admin scope: every route declares the role it needs in `config.role`.
      await authed.register(
        async (admin) => {
          admin.addHook('onRequest', requireRole);
          await admin.register(adminClientsRoutes(deps));
          await admin.register(adminBalancesRoutes(deps));
          await admin.register(routeSplitsRoutes(deps));
          await admin.register(adminUsersRoutes(deps));
          await admin.register(adminRolesRoutes(deps));
        },
        { prefix: '/admin' },
      );
    });
  };
}
