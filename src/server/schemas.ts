import { z } from 'zod';
import { ErrorSchema } from '../shared/schemas/common.ts';

/** Declares the error answers of a route, so the OpenAPI description lists them. */
export function errorResponses(
  ...codes: number[]
): Record<number, typeof ErrorSchema> {
  return Object.fromEntries(codes.map((code) => [code, ErrorSchema]));
}

/** An answer without a body (204). */
export const NoContentSchema = z.undefined().describe('No content');
