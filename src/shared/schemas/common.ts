import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../limits.ts';

export const IdSchema = z.uuid({ message: 'Invalid id' });
export const IdParamsSchema = z.object({ id: IdSchema });

/** ISO-8601 timestamp as serialised by the API. */
export const TimestampSchema = z.iso.datetime({ offset: true });

export const ErrorSchema = z
  .object({
    statusCode: z.number().int(),
    error: z.string(),
    message: z.string(),
  })
  .meta({ id: 'Error' });
export type ApiErrorBody = z.infer<typeof ErrorSchema>;

/** Paging of every list call: `count` is capped at 300 rather than refused. */
export function pagingSchema(defaultCount: number) {
  return z.object({
    count: z.coerce
      .number()
      .int('count must be an integer')
      .min(1, 'count must be at least 1')
      .default(defaultCount)
      .transform((n) => Math.min(n, MAX_PAGE_SIZE)),
    offset: z.coerce
      .number()
      .int('offset must be an integer')
      .min(0, 'offset must not be negative')
      .default(0),
  });
}

export const ListMetaSchema = z.object({
  total: z.number().int(),
  count: z.number().int(),
  offset: z.number().int(),
});

/** Money is a JSON number carrying the exact decimal value (at most 15 significant digits). */
export const AmountSchema = z.number();

/** A search box's text (`q`): trimmed; blank means no search. */
export const SearchTextSchema = z
  .string()
  .trim()
  .max(100, 'Search text is too long')
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), {
    message: 'Search text cannot hold control characters',
  })
  .optional()
  .transform((text) => (text ? text : undefined));
