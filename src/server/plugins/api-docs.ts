import fastifySwagger from '@fastify/swagger';
import scalarReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import { publicScope } from '../auth/scopes.ts';
import type { Config } from '../config.ts';
// Registers the status callback's schema (StatusCallbackEvent) for the document's webhooks.
import '../../shared/schemas/messages.ts';
// And the inbound callback's (InboundCallbackEvent).
import '../../shared/schemas/inbound-callbacks.ts';
import { finishDocument, type OpenApiDocument } from './api-docs-finish.ts';
import { DOCS_CSP } from './security-headers.ts';

/**
 * The OpenAPI 3.1 document generated from the routes' zod schemas (served by the operations
 * feature at /api/openapi.json) and its reference UI at /api/docs. Registered before the
 * routes so it sees them all.
 */
export async function apiDocs(
  app: FastifyInstance,
  config: Config,
): Promise<void> {
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
        securitySchemes: {
          basic: { type: 'http', scheme: 'basic' },
          // Only the WORLD_SPECIAL gateway's receipt webhook: its WORLD_SPECIAL_TOKEN.
          gatewayBearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The WORLD_SPECIAL gateway calls its receipt webhook with Authorization: Bearer WORLD_SPECIAL_TOKEN',
          },
        },
      },
      security: [{ basic: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (document) =>
      finishDocument(
        jsonSchemaTransformObject(document) as unknown as OpenApiDocument,
        { publicUrl: config.delivery.publicUrl },
      ) as unknown as ReturnType<typeof jsonSchemaTransformObject>,
  });
  await app.register(async (docs) => {
    publicScope(docs);
    docs.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', DOCS_CSP);
    });
    await docs.register(scalarReference, {
      routePrefix: '/api/docs',
      configuration: { url: '/api/openapi.json', hideClientButton: true },
    });
  });
}
