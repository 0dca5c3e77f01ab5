import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_SMS_SEGMENTS } from '../limits.ts';
import { countSms } from '../sms.ts';
import {
  IdSchema,
  idOf,
  ListMetaSchema,
  pagingSchema,
  SearchTextSchema,
  text,
  TimestampSchema,
} from './common.ts';

/**
 * CONTRACT "Two-way messaging": the inbound numbers staff assign to clients. A number is 3 to 15
 * digits without `+` (a short code has 3 to 8, a long number more), held by at most one client.
 */
export const NUMBER_MIN_DIGITS = 3;
export const NUMBER_MAX_DIGITS = 15;
export const NUMBER_RULE_MESSAGE = `Number must be ${NUMBER_MIN_DIGITS} to ${NUMBER_MAX_DIGITS} digits without +, such as 447700900123 or 12345`;

export const NumberValueSchema = z
  .string(NUMBER_RULE_MESSAGE)
  .regex(
    new RegExp(`^\\d{${NUMBER_MIN_DIGITS},${NUMBER_MAX_DIGITS}}$`),
    NUMBER_RULE_MESSAGE,
  )
  .meta({ examples: ['447700900100'] });
export const NumberParamsSchema = z.object({ number: NumberValueSchema });

export const NumberSchema = z
  .object({
    number: z.string(),
    clientId: IdSchema,
    /** The answer to HELP/INFO sent to this number; null: HELP_REPLY. */
    helpText: z.string().nullable(),
    /** When the number was assigned to the client holding it now. */
    dateCreated: TimestampSchema,
  })
  .meta({ id: 'Number' });
export type PhoneNumber = z.infer<typeof NumberSchema>;

export const NumberListSchema = ListMetaSchema.extend({
  numbers: z.array(NumberSchema),
}).meta({ id: 'NumberList' });
export type NumberList = z.infer<typeof NumberListSchema>;

/** A client's own numbers, by number: few enough for one answer. */
export const ClientNumbersSchema = z
  .object({ numbers: z.array(NumberSchema) })
  .meta({ id: 'ClientNumbers' });
export type ClientNumbers = z.infer<typeof ClientNumbersSchema>;

export const NumberListQuerySchema = pagingSchema(DEFAULT_PAGE_SIZE).extend({
  /** Numbers starting with it, or whose help text holds it (case-insensitive). */
  q: SearchTextSchema,
  /** The numbers of one client. */
  clientId: idOf('clientId').optional(),
});
export type NumberListQuery = z.input<typeof NumberListQuerySchema>;

/** The HELP answer is sent as an SMS: it must fit the segments a send may have. */
export const HelpTextSchema = text('Help text')
  .trim()
  .refine((value) => !value.includes('\u0000'), {
    message: 'Help text must not contain NUL characters',
    abort: true,
  })
  .refine(
    (value) => countSms(value).segments <= MAX_SMS_SEGMENTS,
    `Help text is too long: at most ${MAX_SMS_SEGMENTS} SMS segments`,
  )
  // Blank means none: the HELP answer is then HELP_REPLY.
  .transform((value) => (value === '' ? null : value))
  .meta({
    description: `The answer sent to HELP or INFO from this number (at most ${MAX_SMS_SEGMENTS} SMS segments); blank or absent: HELP_REPLY`,
    examples: ['Shop support: call 0800 123 456. Reply STOP to opt out.'],
  });

export const PutNumberSchema = z.object({
  clientId: idOf('clientId'),
  helpText: HelpTextSchema.nullable().optional(),
});
export type PutNumberInput = z.input<typeof PutNumberSchema>;
