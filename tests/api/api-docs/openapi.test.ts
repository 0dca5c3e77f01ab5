import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../support/http.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * The API description an integrator generates a client from (issue 33): the live
 * /api/openapi.json passes Redocly's recommended rules, which also check every example against
 * its schema (no-invalid-media-type-examples); every operation has a stable id and summary,
 * every request body and 2xx answer an example, every answer a real description.
 */
const PUBLIC_URL = 'https://sms.skyline-telecom.test';
let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await startServer({ PUBLIC_URL });
  doc = (await httpClient(server.url).get('/api/openapi.json')).body;
});
afterAll(async () => server?.close());

type Operation = { method: string; path: string; op: any };
function operations(): Operation[] {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, op]) => ({ method, path, op })),
  );
}

/**
 * The probes a load balancer calls take no input and never answer a 4xx: the one rule they
 * cannot meet ("at least one 4XX response") is waived for them, and for nothing else.
 */
const WAIVED = new Set(
  ['/api/health', '/api/ready', '/api/config', '/api/version'].map(
    (path) =>
      `operation-4xx-response #/paths/${path.replaceAll('/', '~1')}/get/responses`,
  ),
);

describe('the OpenAPI description', () => {
  it("passes Redocly's recommended rules without an error or a warning", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      // Exits 1 when there are errors; the JSON report is written either way.
      const { stdout } = await promisify(execFile)(
        'node_modules/.bin/redocly',
        ['lint', '--extends', 'recommended', '--format', 'json', file],
        {
          timeout: 60_000,
          env: {
            ...process.env,
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          },
        },
      ).catch((error: { stdout?: string }) => ({
        stdout: error.stdout ?? '',
      }));
      const report = JSON.parse(stdout);
      const problems = (report.problems as any[])
        .map(
          (p) =>
            `${p.ruleId} ${p.location[0]?.pointer}${p.severity === 'error' ? ' (error)' : ''}: ${p.message}`,
        )
        .filter((p) => !WAIVED.has(p.split(':')[0]!));
      expect(problems).toEqual([]);
      expect(report.problems).toHaveLength(WAIVED.size);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('names every operation with a stable, unique operationId and a summary', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // The verbs integrators write: a rename breaks every generated client.
    expect(ids).toEqual(
      expect.arrayContaining([
        'sendSms',
        'quoteSms',
        'listMessages',
        'getMessage',
        'cancelMessage',
        'createBatch',
        'listBatches',
        'getBatch',
        'getBalance',
        'listLedgerEntries',
        'listPrices',
      ]),
    );
    for (const { op } of operations()) expect(op.summary).toBeTruthy();
    expect(operations().every(({ path }) => path.startsWith('/api/'))).toBe(
      true,
    );
  });

  it('gives every request body and 2xx answer an example, and every answer a real description', () => {
    const schemas = doc.components.schemas;
    const hasExample = (media: any) =>
      media.example !== undefined ||
      media.examples !== undefined ||
      schemas[media.schema?.$ref?.split('/').pop()]?.examples !== undefined;
    for (const { op } of operations()) {
      for (const [type, media] of Object.entries<any>(
        op.requestBody?.content ?? {},
      )) {
        expect(hasExample(media), `${op.operationId} ${type}`).toBe(true);
      }
      for (const [status, answer] of Object.entries<any>(op.responses)) {
        expect(answer.description, `${op.operationId} ${status}`).not.toBe(
          'Default Response',
        );
        if (!status.startsWith('2')) {
          // Errors are JSON, CSV exports included.
          expect(Object.keys(answer.content)).toEqual(['application/json']);
          continue;
        }
        for (const [type, media] of Object.entries<any>(answer.content ?? {})) {
          expect(hasExample(media), `${op.operationId} ${status} ${type}`).toBe(
            true,
          );
        }
      }
    }
  });

  it('declares the headers a send takes and returns, Retry-After with every 429, the CSV answers as text/csv', () => {
    const byId = Object.fromEntries(
      operations().map(({ op }) => [op.operationId, op]),
    );
    for (const id of ['sendSms', 'createBatch']) {
      const key = byId[id].parameters.find(
        (p: any) => p.name === 'Idempotency-Key',
      );
      expect(key).toMatchObject({
        in: 'header',
        required: false,
        schema: { type: 'string', pattern: expect.any(String) },
      });
      expect(byId[id].responses['201'].headers).toHaveProperty(
        'Idempotent-Replayed',
      );
    }
    for (const { op } of operations()) {
      if (op.responses['429']) {
        expect(op.responses['429'].headers, op.operationId).toHaveProperty(
          'Retry-After',
        );
      }
    }
    for (const id of [
      'exportMessagesCsv',
      'exportLedgerCsv',
      'adminExportPricesCsv',
    ]) {
      expect(Object.keys(byId[id].responses['200'].content)).toEqual([
        'text/csv',
      ]);
    }
  });

  it('states the bounds the server enforces: no negative counts, the send fields limited', () => {
    const negative: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      if (
        schema.type === 'integer' &&
        (schema.minimum === undefined || (schema.minimum as number) < 0)
      ) {
        negative.push(at);
      }
      for (const [key, value] of Object.entries(schema)) {
        visit(value, `${at}/${key}`);
      }
    };
    visit(doc.paths, '#/paths');
    visit(doc.components, '#/components');
    // The one exception: the WORLD_SPECIAL gateway's own message id, taken as it sends it.
    expect(negative).toEqual([
      '#/paths//api/webhooks/world-special/dlr/post/requestBody/content/application/json/schema/properties/id/anyOf/1',
    ]);

    const send =
      doc.paths['/api/clients/{clientId}/messages/sms'].post.requestBody
        .content['application/json'].schema.properties;
    expect(send.sender).toMatchObject({ minLength: 1, maxLength: 16 });
    expect(send.recipient.pattern).toBeDefined();
    expect(new RegExp(send.recipient.pattern).test('+44 7700 900123')).toBe(
      true,
    );
    expect(new RegExp(send.recipient.pattern).test('12345')).toBe(false);
    expect(send.body).toMatchObject({ minLength: 1, maxLength: 1530 });
    expect(send.sendAt).toMatchObject({ format: 'date-time' });
  });

  it('describes the status callback as a webhook, and the gateway receipt as bearer-authenticated', () => {
    const status = doc.webhooks.messageStatus.post;
    expect(status.parameters).toEqual([
      expect.objectContaining({
        name: 'X-Signature',
        in: 'header',
        required: true,
      }),
    ]);
    expect(status.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/StatusCallbackEvent',
    });
    expect(
      Object.keys(doc.components.schemas.StatusCallbackEvent.properties),
    ).toEqual([
      'messageId',
      'clientId',
      'reference',
      'state',
      'deliveryMethod',
      'error',
      'errorCode',
      'providerErrorCode',
      'dateUpdated',
      'simulated',
    ]);
    // Inbound callbacks: the same signature header, their own event.
    const inbound = doc.webhooks.inboundMessage.post;
    expect(inbound.parameters).toEqual(status.parameters);
    expect(inbound.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/InboundCallbackEvent',
    });
    expect(
      Object.keys(doc.components.schemas.InboundCallbackEvent.properties),
    ).toEqual([
      'type',
      'messageId',
      'clientId',
      'from',
      'to',
      'body',
      'keyword',
      'dateReceived',
    ]);
    const gateway = doc.paths['/api/webhooks/world-special/dlr'].post;
    expect(gateway.security).toEqual([{ gatewayBearer: [] }]);
    expect(doc.components.securitySchemes.gatewayBearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(
      gateway.requestBody.content['application/json'].schema.required,
    ).toEqual(['id', 'status']);
  });

  it('names the server by PUBLIC_URL, has a license and only the components it uses', () => {
    expect(doc.servers).toEqual([
      { url: PUBLIC_URL, description: expect.any(String) },
    ]);
    expect(doc.info.license).toMatchObject({ name: expect.any(String) });
    expect(
      Object.keys(doc.components.schemas).filter((name) =>
        name.endsWith('Input'),
      ),
    ).toEqual([]);
  });
});
