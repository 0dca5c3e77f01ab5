import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BrandingSchema } from '../../../shared/schemas/branding.ts';
import { VersionSchema } from '../../../shared/schemas/version.ts';
import { engineInUse } from '../../db/open.ts';
import type { Deps } from '../../deps.ts';
import * as service from './service.ts';

const tags = ['operations'];

/** The health answer never changes: written once, not serialised on every call. */
const HEALTHY = JSON.stringify({ status: 'ok' });

/** Public: readiness, the branding and prices the console shows, the version, the API description. */
export function operationsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    const engine = engineInUse(deps.db);
    app.get(
      '/version',
      {
        schema: {
          operationId: 'getVersion',
          tags,
          summary:
            'What this server is: release, commit, database schema and engine',
          security: [],
          response: { 200: VersionSchema },
        },
      },
      async () => service.version(deps, engine),
    );
    app.get(
      '/health',
      {
        schema: {
          operationId: 'getHealth',
          tags,
          summary: 'Liveness: the process answers',
          security: [],
          response: { 200: z.object({ status: z.literal('ok') }) },
        },
        // 15 bytes out, none in: compression would never pay.
        compress: false,
        decompress: false,
      },
      // A string with a JSON content type is sent as it is (the schema above documents it); a
      // handler that is not async answers without a promise.
      (_request, reply) => {
        void reply
          .type('application/json; charset=utf-8')
          .send(HEALTHY as never);
      },
    );
    app.get(
      '/ready',
      {
        schema: {
          operationId: 'getReadiness',
          tags,
          summary:
            'Readiness: whether a load balancer should send this node traffic',
          security: [],
          response: {
            200: z.object({ status: z.literal('ready') }),
            503: z.object({
              status: z.enum(['draining', 'database unavailable']),
              /** Every 5xx body names its request (CONTRACT.md "Request ids"). */
              requestId: z.string(),
            }),
          },
        },
      },
      async (request, reply) => {
        const status = await app.readiness.status();
        if (status === 'ready') return { status };
        return reply.code(503).send({ status, requestId: request.id });
      },
    );
    app.get(
      '/config',
      {
        schema: {
          operationId: 'getConfig',
          tags,
          summary: 'Branding and prices the console shows',
          security: [],
          response: { 200: BrandingSchema },
        },
      },
      async () => ({
        ...deps.config.branding,
        currency: deps.config.currency,
        smsPrice: deps.config.smsPrice,
      }),
    );
    app.get('/openapi.json', { schema: { hide: true } }, async () =>
      app.swagger(),
    );
  };
}
