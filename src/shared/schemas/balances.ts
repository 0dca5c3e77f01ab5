import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_CREDIT_AMOUNT } from '../limits.ts';
import { parseDecimal } from '../money.ts';
import {
  AmountSchema,
  IdSchema,
  ListMetaSchema,
  pagingSchema,
  TimestampSchema,
} from './common.ts';
import { DateOrTimeSchema } from './periods.ts';

export const BalanceSchema = z
  .object({
    id: IdSchema,
    currency: z.string(),
    amount: AmountSchema,
    minThreshold: AmountSchema,
    dateCreated: TimestampSchema,
    dateUpdated: TimestampSchema,
  })
  .meta({ id: 'Balance' });
export type Balance = z.infer<typeof BalanceSchema>;

/** A positive decimal with at most 4 places, as a number or a string; yields canonical text. */
export const CreditAmountSchema = z
  .union([z.number(), z.string()])
  .transform((value, ctx) => {
    const text = parseDecimal(value);
    if (
      text === null ||
      Number(text) <= 0 ||
      Number(text) > MAX_CREDIT_AMOUNT
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `Amount must be a positive decimal with at most 4 decimal places, up to ${MAX_CREDIT_AMOUNT}`,
      });
      return z.NEVER;
    }
    return text;
  });

export const CREDIT_REASON_MAX = 200;

/** The admin's reason for a free credit, kept on the ledger entry; blank is no reason (null). */
export const CreditReasonSchema = z
  .string()
  .trim()
  .max(
    CREDIT_REASON_MAX,
    `Reason must be at most ${CREDIT_REASON_MAX} characters`,
  )
  .nullish()
  .transform((text) => (text ? text : null));

export const FreeCreditSchema = z.object({
  amount: CreditAmountSchema,
  reason: CreditReasonSchema,
});

/** Largest threshold numeric(15,4) holds. */
export const MAX_THRESHOLD = 99_999_999_999;

const THRESHOLD_MESSAGE =
  'Threshold must be a decimal of at least 0 with at most 4 decimal places';

/** The low-balance warning level: a decimal ≥ 0 with at most 4 places, as canonical text. */
export const ThresholdSchema = z
  .union([z.number(), z.string()], { message: THRESHOLD_MESSAGE })
  .transform((value, ctx) => {
    const text = parseDecimal(value);
    if (text === null || Number(text) > MAX_THRESHOLD) {
      ctx.addIssue({ code: 'custom', message: THRESHOLD_MESSAGE });
      return z.NEVER;
    }
    return text;
  });

export const UpdateBalanceSchema = z.object({ minThreshold: ThresholdSchema });

export const LEDGER_KINDS = ['FREE_CREDIT', 'SMS', 'REFUND'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const LedgerEntrySchema = z
  .object({
    /** Increasing with every entry of the ledger (a decimal integer as text). */
    id: z.string(),
    kind: z.enum(LEDGER_KINDS),
    /** Signed: a credit or refund is positive, a debit negative. */
    amount: AmountSchema,
    balanceAfter: AmountSchema,
    /** The admin's reason for a free credit; null otherwise. */
    reason: z.string().nullable(),
    messageId: IdSchema.nullable(),
    /** The message's recipient and segments, for SMS and REFUND entries; null otherwise. */
    recipient: z.string().nullable(),
    segments: z.number().int().nonnegative().nullable(),
    /**
     * For SMS and REFUND entries, the price per segment the message was charged at and the
     * price list prefix that set it (null for the default price, SMS_PRICE); null otherwise.
     */
    pricePerSegment: AmountSchema.nullable(),
    pricePrefix: z.string().nullable(),
    dateCreated: TimestampSchema,
  })
  .meta({ id: 'LedgerEntry' });
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

export const LedgerSchema = ListMetaSchema.extend({
  entries: z.array(LedgerEntrySchema),
});
export type Ledger = z.infer<typeof LedgerSchema>;

const LedgerFilterSchema = z.object({
  kind: z
    .enum(LEDGER_KINDS, {
      message: 'kind must be FREE_CREDIT, SMS or REFUND',
    })
    .optional(),
  since: DateOrTimeSchema.optional(),
  until: DateOrTimeSchema.optional(),
});

export const LedgerQuerySchema = pagingSchema(DEFAULT_PAGE_SIZE).extend(
  LedgerFilterSchema.shape,
);
export const LedgerCsvQuerySchema = LedgerFilterSchema;

/** At most this many days in one usage answer. */
export const MAX_USAGE_DAYS = 366;
export const DEFAULT_USAGE_DAYS = 30;

export const UsageQuerySchema = z.object({
  since: DateOrTimeSchema.optional(),
  until: DateOrTimeSchema.optional(),
});

export const UsageDaySchema = z.object({
  /** YYYY-MM-DD, UTC. */
  date: z.string(),
  messages: z.number().int().nonnegative(),
  segments: z.number().int().nonnegative(),
  /** Spent that day: debits less refunds. */
  amount: AmountSchema,
});
export const UsageSchema = z
  .object({ days: z.array(UsageDaySchema) })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof UsageSchema>;
export type UsageDay = z.infer<typeof UsageDaySchema>;
export type UpdateBalanceInput = z.input<typeof UpdateBalanceSchema>;

/** A range of whole UTC days, both included, as the usage chart asks for it. */
export const UsagePeriodSchema = z
  .object({
    since: z.iso.date('Enter a date'),
    until: z.iso.date('Enter a date'),
  })
  .refine((period) => period.since <= period.until, {
    message: 'Until must not be before Since',
    path: ['until'],
  });
export type UsagePeriod = z.infer<typeof UsagePeriodSchema>;

/**
 * The console's free-credit form: a decimal above 0, worded for the person typing it (spec §5:
 * "parsed as a decimal number"); the server's own limits answer in its words. The optional
 * reason is the server's own rule (up to 200 characters, blank is none).
 */
export const FreeCreditFormSchema = z.object({
  reason: CreditReasonSchema,
  amount: z.string().transform((value, ctx) => {
    const text = parseDecimal(value);
    if (text === null || Number(text) <= 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'Enter an amount above 0, such as 25 or 12.50.',
      });
      return z.NEVER;
    }
    return text;
  }),
});
