import { z } from 'zod';
import { parseDecimal } from '../money.ts';
import {
  AmountSchema,
  IdSchema,
  ListMetaSchema,
  TimestampSchema,
} from './common.ts';

/** What moved a balance (CONTRACT.md "Accountability"): a grant, an SMS, or its refund. */
export const LEDGER_KINDS = ['FREE_CREDIT', 'SMS', 'REFUND'] as const;
export const LedgerKindSchema = z.enum(LEDGER_KINDS);
export type LedgerKind = z.infer<typeof LedgerKindSchema>;

/** One row of a balance's ledger; `amount` is signed (credits positive, debits negative). */
export const LedgerEntrySchema = z
  .object({
    id: IdSchema,
    kind: LedgerKindSchema,
    amount: AmountSchema,
    balanceAfter: AmountSchema,
    reason: z.string().nullable(),
    messageId: IdSchema.nullable(),
    dateCreated: TimestampSchema,
  })
  .meta({ id: 'LedgerEntry' });
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

/** A page of the ledger, newest first. */
export const LedgerPageSchema = ListMetaSchema.extend({
  entries: z.array(LedgerEntrySchema),
}).meta({ id: 'LedgerPage' });
export type LedgerPage = z.infer<typeof LedgerPageSchema>;

/** One UTC day of usage: `amount` is what was spent that day (refunds subtract). */
export const UsageDaySchema = z.object({
  date: z.iso.date(),
  messages: z.number().int(),
  segments: z.number().int(),
  amount: AmountSchema,
});
export type UsageDay = z.infer<typeof UsageDaySchema>;

/** Every day of the asked range, zeros included. */
export const UsageSchema = z
  .object({ days: z.array(UsageDaySchema) })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof UsageSchema>;

/** A threshold of 0 or more with at most 4 decimals, as a number or a string; canonical text. */
export const ThresholdAmountSchema = z
  .union([z.number(), z.string()])
  .transform((value, ctx) => {
    const text = parseDecimal(value);
    if (text === null) {
      ctx.addIssue({
        code: 'custom',
        message: 'Enter an amount of 0 or more, such as 5 or 12.50.',
      });
      return z.NEVER;
    }
    return text;
  });

/** PUT /api/admin/clients/{clientId}/balances/{balanceId}: the low-balance threshold. */
export const UpdateThresholdSchema = z.object({
  minThreshold: ThresholdAmountSchema,
});
export type UpdateThresholdInput = z.input<typeof UpdateThresholdSchema>;

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
