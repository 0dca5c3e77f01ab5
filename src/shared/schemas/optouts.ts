import { z } from 'zod';
import {
  NATIONAL_NUMBER_MESSAGE,
  RECIPIENT_PATTERN,
  cleanRecipient,
  isNationalNumber,
  isValidRecipient,
} from '../recipient.ts';
import { IdSchema, ListMetaSchema, pagingSchema } from './common.ts';

/**
 * CONTRACT "Two-way messaging: numbers, inbound SMS and opt-outs" (Opt-outs): a remote number
 * opted out of one client's messages, by its own STOP (`keyword`, ended only by its START) or by
 * the client (`api`). Every send to it from that client is refused (403, recipient_opted_out).
 */
export const OPT_OUT_SOURCES = ['keyword', 'api'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

export const OptOutSchema = z
  .object({
    /** The number's digits, as sends see a recipient (no `+`). */
    number: z.string(),
    source: z.enum(OPT_OUT_SOURCES),
    dateCreated: z.string(),
  })
  .meta({ id: 'OptOut' });
export type OptOut = z.infer<typeof OptOutSchema>;

export const OptOutListSchema = ListMetaSchema.extend({
  optouts: z.array(OptOutSchema),
}).meta({ id: 'OptOutList' });
export type OptOutList = z.infer<typeof OptOutListSchema>;

export const OptOutQuerySchema = pagingSchema(30);

/** The number of a path, cleaned as a send's recipient is (`+44 7700…`, `0044…`: `447700…`). */
export const OptOutNumberSchema = z
  .string('Number must be a phone number')
  .transform(cleanRecipient)
  .refine(isValidRecipient, {
    error: (issue) =>
      isNationalNumber(String(issue.input))
        ? NATIONAL_NUMBER_MESSAGE.replace('Recipient', 'Number')
        : 'Number must be a phone number of 6 to 15 digits',
  })
  .meta({
    description:
      'A phone number in international form, cleaned as a send cleans its recipient (plus signs, dots, dashes, whitespace and a leading 00 dropped)',
    pattern: RECIPIENT_PATTERN,
    examples: ['447700900123'],
  });

export const OptOutParamsSchema = z.object({
  clientId: IdSchema,
  number: OptOutNumberSchema,
});

/** The columns of GET …/optouts.csv, in order. */
export const OPT_OUT_CSV_COLUMNS = ['number', 'source', 'dateCreated'] as const;
