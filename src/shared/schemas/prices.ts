import { z } from 'zod';
import {
  AmountSchema,
  ListMetaSchema,
  nameText,
  pagingSchema,
  SearchTextSchema,
} from './common.ts';

/**
 * CONTRACT "Destinations: prices, permissions and throughput": a global price list by prefix
 * (the longest matching prefix of a recipient's digits wins; none → SMS_PRICE, open), and per
 * client the destinations it may reach and how many messages a second it may send.
 */

/** Prices carry at most 6 decimal places; amounts charged keep the balance's own scale. */
export const PRICE_SCALE = 6;
export const MAX_PREFIX_DIGITS = 15;

export const PrefixSchema = z
  .string('Prefix must be a string of digits')
  .regex(
    new RegExp(`^\\d{1,${MAX_PREFIX_DIGITS}}$`),
    `Prefix must be 1 to ${MAX_PREFIX_DIGITS} digits, such as 44 or 4479`,
  );
export const PrefixParamsSchema = z.object({ prefix: PrefixSchema });

export const PriceSchema = z
  .object({
    prefix: z.string(),
    name: z.string(),
    /** Exact decimal value as a JSON number (at most 6 decimal places). */
    pricePerSegment: AmountSchema,
    blocked: z.boolean(),
  })
  .meta({ id: 'Price' });
export type Price = z.infer<typeof PriceSchema>;

export const PriceListSchema = ListMetaSchema.extend({
  currency: z.string(),
  defaultPricePerSegment: AmountSchema,
  prices: z.array(PriceSchema),
}).meta({ id: 'PriceList' });
export type PriceList = z.infer<typeof PriceListSchema>;

export const PriceListQuerySchema = pagingSchema(30).extend({
  q: SearchTextSchema,
});

/** A price per segment as typed or sent: a decimal ≥ 0 with at most 6 decimal places. */
export const PricePerSegmentSchema = z
  .union([z.number(), z.string()], 'Price per segment must be a number')
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    // At most 9 digits before the point: 15 significant digits, which a JSON number (a
    // double) carries exactly, so the price read back is the price written.
    if (!/^\d{1,9}(\.\d{1,6})?$/.test(text)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'Price per segment must be a decimal of at least 0 with at most 6 decimal places',
      });
      return z.NEVER;
    }
    return text;
  });

export const PutPriceSchema = z.object({
  name: nameText('Name')
    .trim()
    .min(1, 'Name is required')
    .max(100, 'Name is too long'),
  pricePerSegment: PricePerSegmentSchema,
  blocked: z.boolean('Blocked must be true or false').optional(),
});
export type PutPriceInput = z.input<typeof PutPriceSchema>;

export const PriceImportResultSchema = z.object({
  count: z.number().int().nonnegative(),
});

export const QuoteQuerySchema = z.object({
  recipient: z.string('Recipient is required'),
  body: z.string('Body is required'),
});

export const QuoteSchema = z
  .object({
    recipient: z.string(),
    pricePrefix: z.string().nullable(),
    pricePerSegment: AmountSchema,
    encoding: z.enum(['GSM-7', 'UCS-2']),
    segments: z.number().int().nonnegative(),
    amount: AmountSchema,
    allowed: z.boolean(),
    /** Why this client may not send it; null when allowed. */
    reason: z.string().nullable(),
  })
  .meta({ id: 'Quote' });
export type Quote = z.infer<typeof QuoteSchema>;

/** What staff set per client; each optional, null clears. */
export const ClientLimitsSchema = z.object({
  allowedPrefixes: z
    .array(PrefixSchema, 'Allowed prefixes must be a list of prefixes')
    .max(1000, 'At most 1000 allowed prefixes')
    .nullable()
    .optional(),
  maxMessagesPerSecond: z
    .number('Max messages per second must be a whole number')
    .int('Max messages per second must be a whole number')
    .min(1, 'Max messages per second must be at least 1')
    .max(1_000_000, 'Max messages per second is too large')
    .nullable()
    .optional(),
});
export type ClientLimitsInput = z.infer<typeof ClientLimitsSchema>;
