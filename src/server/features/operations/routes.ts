import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BrandingSchema } from '../../../shared/schemas/branding.ts';
import type { Deps } from '../../deps.ts';

const tags = ['operations'];

/** Public: readiness, the branding and prices the console shows, the API description. */
export function operationsRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags,
          security: [],
          response: { 200: z.object({ status: z.literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );
    app.get(
      '/config',
      {
        schema: {
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
