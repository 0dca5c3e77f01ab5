/**
 * `npm run sdk`: regenerates the typed SDK's types (src/sdk/schema.ts) from the API's OpenAPI
 * description with openapi-typescript. tests/api/api-docs/sdk.test.ts generates them again from the live
 * /api/openapi.json and fails when the committed file differs: run this after changing a route.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { openApiDocument } from './openapi-document.ts';

export const SDK_SCHEMA_FILE = fileURLToPath(
  new URL('../src/sdk/schema.ts', import.meta.url),
);

/** The SDK's types for this description, formatted as the repository formats TypeScript. */
export async function sdkSchemaSource(
  document: Record<string, unknown>,
): Promise<string> {
  const nodes = await openapiTS(document as never, {
    rootTypes: true,
    rootTypesNoSchemaPrefix: false,
  });
  const source = `${COMMENT_HEADER.replace(
    'openapi-typescript.',
    'openapi-typescript from /api/openapi.json: `npm run sdk`.',
  )}${astToString(nodes)}`;
  return format(source, {
    ...(await resolveConfig(SDK_SCHEMA_FILE)),
    filepath: SDK_SCHEMA_FILE,
  });
}

if (import.meta.main) {
  await writeFile(
    SDK_SCHEMA_FILE,
    await sdkSchemaSource(await openApiDocument()),
  );
  console.log(`wrote ${SDK_SCHEMA_FILE}`);
}
