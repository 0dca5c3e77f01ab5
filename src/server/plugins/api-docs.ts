import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
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
    const reference = lazyReference();
    docs.addHook('onClose', () => reference.close());
    for (const url of [DOCS_PREFIX, `${DOCS_PREFIX}/*`]) {
      docs.get(url, { schema: { hide: true } }, async (request, reply) => {
        const answer = await reference.answer(request);
        for (const name of FORWARDED_HEADERS) {
          const value = answer.headers[name];
          if (value !== undefined) reply.header(name, value);
        }
        const body = answer.rawPayload;
        return reply
          .code(answer.statusCode)
          .send(body.length > 0 ? body : undefined); // a redirect has none
      });
    }
  });
}

const DOCS_PREFIX = '/api/docs';
/** What the reference's answers say that the browser needs (its redirects, its types). */
const FORWARDED_HEADERS = ['content-type', 'location'] as const;

/**
 * The reference UI (@scalar/fastify-api-reference), loaded on the first visit to /api/docs:
 * the plugin holds its browser bundle as a 4 MB two-byte string, which with the module's own
 * source is 16 MB of heap from the start (issue 34) on a node whose docs nobody reads. It runs
 * in a private Fastify instance whose answers the docs routes replay: routes cannot be added to
 * a started server, and this keeps the plugin as it is.
 */
function lazyReference() {
  let instance: Promise<FastifyInstance> | undefined;
  async function build(): Promise<FastifyInstance> {
    const { default: scalarReference } =
      await import('@scalar/fastify-api-reference');
    const reference = Fastify({
      routerOptions: { ignoreTrailingSlash: true },
    });
    await reference.register(scalarReference, {
      routePrefix: DOCS_PREFIX,
      configuration: { url: '/api/openapi.json', hideClientButton: true },
    });
    await reference.ready();
    return reference;
  }
  return {
    async answer(request: FastifyRequest) {
      instance ??= build().catch((error: unknown) => {
        instance = undefined; // the next visit tries again
        throw error;
      });
      return (await instance).inject({ method: 'GET', url: request.url });
    },
    async close() {
      await (await instance?.catch(() => undefined))?.close();
    },
  };
}
