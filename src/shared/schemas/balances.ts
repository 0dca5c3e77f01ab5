import { z } from 'zod';
import { MAX_CREDIT_AMOUNT } from '../limits.ts';
import { parseDecimal } from '../money.ts';
import { AmountSchema, IdSchema, TimestampSchema } from './common.ts';

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

export const FreeCreditSchema = z.object({ amount: CreditAmountSchema });

/**
 * The console's free-credit form: a decimal above 0, worded for the person typing it (spec §5:
 * "parsed as a decimal number"); the server's own limits answer in its words.
 */
export const FreeCreditFormSchema = z.object({
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
