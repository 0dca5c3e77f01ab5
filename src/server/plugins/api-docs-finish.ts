import { z } from 'zod';
import { IdempotencyKeySchema } from '../../shared/schemas/messages.ts';
import { COMPONENT_EXAMPLES, OPERATION_EXAMPLES } from './api-docs-examples.ts';

/**
 * What the generated OpenAPI document cannot say from the routes' zod schemas alone, added in
 * one place after @fastify/swagger built it: the servers, the license, the headers a call takes
 * and returns (Idempotency-Key, Retry-After, Idempotent-Replayed), answers' descriptions, the
 * examples of the shared schemas on the answers that use them, the CSV answers' media types,
 * and only the components something uses (fastify-type-provider-zod registers an `…Input` copy
 * of every schema, which no route of ours takes).
 */

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
  example?: unknown;
  examples?: unknown;
}
interface Response {
  description: string;
  headers?: Record<string, Json>;
  content?: Record<string, Media>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: Json[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, Response>;
}
export interface OpenApiDocument {
  openapi: string;
  info: Json;
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, Json> } & Json;
  webhooks?: Json;
  [key: string]: unknown;
}

/** Sends that take an `Idempotency-Key` and may answer a replay. */
const IDEMPOTENT = new Set(['sendSms', 'createBatch']);
/** Answers streamed as CSV, with an example of each; their errors are JSON like any other. */
const CSV_ANSWERS: Record<string, string> = {
  exportMessagesCsv:
    'id,dateCreated,dateUpdated,state,deliveryMethod,simulated,sender,recipient,reference,encoding,segments,price,pricePerSegment,pricePrefix,currency,body\r\n' +
    '0b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b,2026-11-28T09:00:00.000Z,2026-11-28T09:00:02.000Z,DELIVERED,MELROSE_SMPP,false,Shop,447700900123,order-1042,GSM-7,1,0.05,0.05,44,EUR,Your order has shipped\r\n',
  exportLedgerCsv:
    'id,date,kind,amount,balanceAfter,reason,messageId,recipient,segments,pricePerSegment,pricePrefix\n' +
    '42,2026-11-28T09:00:00.000Z,SMS,-0.05,9.95,,0b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b,447700900123,1,0.05,44\n',
  adminExportPricesCsv:
    'prefix,name,pricePerSegment,blocked\n44,United Kingdom,0.05,false\n',
  exportOptOutsCsv:
    'number,source,dateCreated\r\n447700900123,keyword,2026-11-28T09:00:00.000Z\r\n',
};

/** On every answer (plugins/request-id.ts): quote it when reporting a problem; a 5xx body has it too. */
const REQUEST_ID = {
  $ref: '#/components/headers/X-Request-Id',
};
const REQUEST_ID_HEADER = {
  description:
    'The id of this request in the server log: the caller’s own X-Request-Id when valid (1–128 of A–Z a–z 0–9 . _ : -), else a new one',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};

const RETRY_AFTER = {
  description: 'Seconds to wait before trying again',
  schema: { type: 'integer', minimum: 1, examples: [1] },
};

/** What each error status means here; the body's `code` and `message` say exactly why. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400':
    'The request is invalid (code `validation_failed` or `bad_request`): `message` names the field and the rule',
  '401':
    'Missing or wrong credentials (code `unauthorized`): HTTP Basic with e-mail and password, or the client id and secret',
  '402':
    'The balance is too low for this send (code `insufficient_balance`); nothing is charged',
  '403':
    'Not allowed (code `forbidden`, or `destination_not_allowed` / `destination_blocked` for a send)',
  '404': 'Not found, or not yours (code `not_found`)',
  '409': 'Conflicts with the current state (code `conflict`)',
  '413': 'The body is too large (code `payload_too_large`)',
  '415':
    'The body is not of a type this call takes (code `unsupported_media_type`)',
  '422':
    'Well-formed but refused (code `idempotency_key_reused`, `wrong_password` or `unprocessable`)',
  '429':
    'Too many requests (code `rate_limited`): wait the Retry-After header’s seconds',
  '503':
    'Temporarily unavailable (code `unavailable`): wait the Retry-After header’s seconds',
};

/** "MessageDetail" → "message detail". */
function words(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function refName(schema: Json | undefined): string | undefined {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}

function successDescription(
  status: string,
  operation: Operation,
  media: Media | undefined,
): string {
  if (status === '204') return 'Done; no content';
  const name = refName(media?.schema);
  if (status === '201') return `Created: the new ${words(name ?? 'resource')}`;
  if (name) return `The ${words(name)}`;
  return operation.summary ?? 'Success';
}

/** The first example of the schema or of the component it refers to. */
function exampleOf(
  schema: Json | undefined,
  components: Record<string, Json>,
): unknown {
  if (!schema) return undefined;
  const name = refName(schema);
  const target = name ? components[name] : schema;
  const examples = target?.examples;
  return Array.isArray(examples) ? examples[0] : undefined;
}

function giveExample(
  media: Media,
  components: Record<string, Json>,
  fallback: unknown,
): void {
  if (media.example !== undefined || media.examples !== undefined) return;
  const example = exampleOf(media.schema, components) ?? fallback;
  if (example !== undefined) media.example = example;
}

/** Every `#/components/schemas/…` reachable from the paths and webhooks. */
function usedSchemas(doc: OpenApiDocument): Set<string> {
  const schemas = doc.components.schemas ?? {};
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.replace('#/components/schemas/', '');
        if (!used.has(name) && schemas[name]) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(doc.paths);
  visit(doc.webhooks);
  return used;
}

/**
 * What this server POSTs to a client's status callback URL (OpenAPI 3.1 `webhooks`), signed
 * with the client's statusCallbackSigningKey.
 */
const STATUS_WEBHOOK = {
  messageStatus: {
    post: {
      operationId: 'messageStatus',
      tags: ['webhooks'],
      summary:
        "A message changed state: POSTed to the client's statusCallbackUrl",
      description:
        'Sent for every state change of the messages of a client with a statusCallbackUrl ' +
        '(SCHEDULED, ACCEPTED, SUBMITTED, then the final state). Check X-Signature before ' +
        'trusting the body, and refuse a `t` older than a few minutes. Events may arrive out of ' +
        'order: order them by `dateUpdated`. A non-2xx answer, or none within 10 s, is tried ' +
        'again after 15 s, 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h and 6 h (about 26 hours).',
      security: [],
      parameters: [
        {
          name: 'X-Signature',
          in: 'header',
          required: true,
          description:
            '`t=<unix seconds>,v1=<hex HMAC-SHA256(statusCallbackSigningKey as UTF-8, "<t>.<raw body>")>`',
          schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
          example:
            't=1796202002,v1=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592',
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/StatusCallbackEvent' },
          },
        },
      },
      responses: {
        '200': {
          description:
            'Any 2xx answer: the event is received and not sent again',
        },
        '4XX': {
          description:
            'Any other answer (or none within 10 s): the event is tried again later',
        },
      },
    },
  },
};

/** The generic gateway's receipt (the route's own parser checks it after the bearer token). */
const GATEWAY_RECEIPT = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          id: {
            anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }],
            description: 'The id the gateway answered the submit with',
          },
          status: {
            type: 'string',
            enum: ['delivered', 'undelivered', 'expired', 'rejected'],
          },
          error: { type: 'string', description: "The gateway's reason" },
        },
        required: ['id', 'status'],
      },
    },
  },
};

export function finishDocument(
  doc: OpenApiDocument,
  options: { publicUrl: string },
): OpenApiDocument {
  doc.servers = [
    { url: options.publicUrl, description: 'This server (PUBLIC_URL)' },
  ];
  doc.info.license = {
    name: 'Proprietary',
    identifier: 'LicenseRef-Proprietary',
  };
  // A copy: the example given below must not change the module's constant.
  const webhooks = structuredClone(STATUS_WEBHOOK);
  doc.webhooks = webhooks;
  // The console's own pages are not part of the API.
  for (const path of Object.keys(doc.paths)) {
    if (!path.startsWith('/api/')) delete doc.paths[path];
  }
  doc.components.headers = { 'X-Request-Id': REQUEST_ID_HEADER };
  const components = doc.components.schemas ?? {};
  for (const [name, example] of Object.entries(COMPONENT_EXAMPLES)) {
    const schema = components[name];
    if (schema && schema.examples === undefined) schema.examples = [example];
  }
  const idempotencyKey = z.toJSONSchema(IdempotencyKeySchema, {
    target: 'draft-2020-12',
  });
  delete idempotencyKey.$schema;

  for (const operations of Object.values(doc.paths)) {
    for (const operation of Object.values(operations)) {
      const id = operation.operationId ?? '';
      const examples = OPERATION_EXAMPLES[id];
      if (id === 'receiveWorldSpecialReceipt') {
        operation.requestBody = structuredClone(GATEWAY_RECEIPT);
      }
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        giveExample(media, components, examples?.request);
      }
      const csv = CSV_ANSWERS[id];
      if (csv !== undefined) {
        const described = operation.responses['200']?.description;
        operation.responses['200'] = {
          description:
            described && described !== 'Default Response'
              ? described
              : 'CSV: a header line, then one line per entry',
          content: { 'text/csv': { schema: { type: 'string' }, example: csv } },
        };
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.['application/json'];
        const isError = /^[45]/.test(status);
        if (isError) {
          // Errors are JSON, whatever the successful answer is.
          const schema =
            response.content &&
            Object.values(response.content).find((m) => m.schema)?.schema;
          response.content = {
            'application/json': {
              schema: schema ?? { $ref: '#/components/schemas/Error' },
            },
          };
          if (response.description === 'Default Response') {
            response.description = ERROR_DESCRIPTIONS[status] ?? 'Error';
          }
        } else {
          if (response.description === 'Default Response') {
            response.description = successDescription(status, operation, media);
          }
          if (media) giveExample(media, components, examples?.answer);
        }
        response.headers = { ...response.headers, 'X-Request-Id': REQUEST_ID };
        if (status === '429' || status === '503') {
          response.headers = {
            ...response.headers,
            'Retry-After': RETRY_AFTER,
          };
        }
        if (IDEMPOTENT.has(id) && status === '201') {
          response.headers = {
            ...response.headers,
            'Idempotent-Replayed': {
              description:
                'Present (`true`) when this answers a repeat of an earlier request with the same Idempotency-Key: nothing new was sent or charged',
              schema: { type: 'string', enum: ['true'] },
            },
          };
        }
      }
      if (IDEMPOTENT.has(id)) {
        operation.parameters = [
          ...(operation.parameters ?? []),
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'Makes a retry safe: the same request with the same key within 24 hours answers the first result again (header Idempotent-Replayed) and charges nothing; the same key with another request answers 422 idempotency_key_reused',
            schema: idempotencyKey,
            example: 'order-1042-reminder',
          },
        ];
      }
    }
  }

  giveExample(
    webhooks.messageStatus.post.requestBody.content['application/json'],
    components,
    undefined,
  );
  const used = usedSchemas(doc);
  for (const name of Object.keys(components)) {
    if (!used.has(name)) delete components[name];
  }
  return doc;
}
