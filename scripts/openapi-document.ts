/**
 * The API's OpenAPI description as the server serves it at /api/openapi.json, built without a
 * listening server: an in-memory database (routes need their dependencies to register).
 */
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';

export async function openApiDocument(
  env: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const config = loadConfig({
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    WEB_DIR: '.tmp/no-console',
    ...env,
  });
  const app = await buildApp(config);
  try {
    await app.ready();
    return JSON.parse(JSON.stringify(app.swagger())) as Record<string, unknown>;
  } finally {
    await app.close();
  }
}

if (import.meta.main) {
  process.stdout.write(`${JSON.stringify(await openApiDocument(), null, 2)}\n`);
}
