import { z } from 'zod';
import { ERROR_CODE_NAMES, ERROR_CODES } from '../error-codes.ts';
import { MAX_PAGE_SIZE } from '../limits.ts';
import { isPlainName } from '../text.ts';

/**
 * Any text a caller sends: a string that is well-formed Unicode. Lone UTF-16 surrogates (JSON
 * allows them as `\ud800` escapes) cannot be stored faithfully: the embedded database
 * miscounted their bytes and kept text cut short, while the full text was charged. `label`
 * names the field in the message, as users know it ("First name").
 */
export function text(label: string) {
  return z.string().refine((value) => value.isWellFormed(), {
    message: `${label} must be valid Unicode text`,
    abort: true,
  });
}

/**
 * Text shown to others as a name (people, organizations, clients): also free of control
 * characters and of the marks that reorder or hide text when displayed (spoofed names).
 */
export function nameText(label: string) {
  return text(label).refine(isPlainName, {
    message: `${label} must not contain control or text-direction characters`,
    abort: true,
  });
}

export const IdSchema = z.uuid({ message: 'Invalid id' });
/** What an id looks like, for messages that ask for one. */
export const UUID_EXAMPLE = '3f2a9c4e-8b1d-4e6f-a2c5-7d9e0b1f4a6c';
/** An id typed by someone: a refusal names the field (`label`) and the form it takes. */
export function idOf(label: string) {
  return z.uuid({ message: `${label} must be a UUID such as ${UUID_EXAMPLE}` });
}
export const IdParamsSchema = z.object({ id: IdSchema });
/** Every route on one client names it `:clientId` (the client-or-user scope checks it). */
export const ClientIdParamsSchema = z.object({ clientId: IdSchema });

/** ISO-8601 timestamp as serialised by the API. */
export const TimestampSchema = z.iso.datetime({ offset: true });

export const ErrorSchema = z
  .object({
    statusCode: z.number().int().nonnegative(),
    error: z.string(),
    code: z.enum(ERROR_CODE_NAMES).meta({
      description:
        'Stable: what a program branches on. ' +
        Object.entries(ERROR_CODES)
          .map(([code, meaning]) => `\`${code}\`: ${meaning}.`)
          .join(' '),
    }),
    /** For people, in English; its wording may change. */
    message: z.string(),
    /** On a 5xx only: the request's id (its X-Request-Id), which finds the error in the log. */
    requestId: z.string().optional(),
  })
  .meta({
    id: 'Error',
    examples: [
      {
        statusCode: 402,
        error: 'Payment Required',
        code: 'insufficient_balance',
        message: 'Not enough balance',
      },
    ],
  });
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
  total: z.number().int().nonnegative().meta({
    description: 'How many items the whole list holds, over all pages',
  }),
  count: z.number().int().nonnegative().meta({
    description:
      'The page size: the `count` asked for (default 30, at most 300); the page may hold fewer',
  }),
  offset: z.number().int().nonnegative().meta({
    description: 'How many items of the list come before this page',
  }),
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
