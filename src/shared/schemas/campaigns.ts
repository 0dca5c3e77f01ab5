import { z } from 'zod';
import {
  AmountSchema,
  IdSchema,
  ListMetaSchema,
  pagingSchema,
  TimestampSchema,
} from './common.ts';
import { MESSAGE_STATES, SendSmsSchema } from './messages.ts';

/**
 * CONTRACT "Campaigns: scheduled and bulk sends": sends held until `sendAt`, and one body sent
 * to a list of recipients as a batch (all or nothing).
 */

/** How far ahead a send may be scheduled. */
export const MAX_SCHEDULE_DAYS = 35;
/** Recipients of one batch. */
export const MAX_BATCH_RECIPIENTS = 10_000;
/** Bad entries a refused batch lists at most. */
export const MAX_LISTED_BAD_ENTRIES = 20;

/**
 * `sendAt`: an ISO 8601 date-time with its offset, from now up to 35 days ahead. `now` is a
 * parameter so the console checks with the same rule as the server.
 */
export function sendAtSchema(now: () => number = Date.now) {
  return z
    .string('Send at must be an ISO 8601 date-time')
    .refine(
      (value) => z.iso.datetime({ offset: true }).safeParse(value).success,
      {
        message:
          'Send at must be an ISO 8601 date-time with its offset, such as 2026-12-01T09:00:00Z',
        abort: true,
      },
    )
    .refine((value) => Date.parse(value) >= now() - 1000, {
      message: 'Send at must not be in the past',
      abort: true,
    })
    .refine(
      (value) => Date.parse(value) <= now() + MAX_SCHEDULE_DAYS * 86_400_000,
      `Send at must be at most ${MAX_SCHEDULE_DAYS} days ahead`,
    );
}

export const BatchSchema = z
  .object({
    id: IdSchema,
    /** Distinct recipients (duplicates are sent once). */
    total: z.number().int(),
    /** The sum of its messages' prices. */
    amount: AmountSchema,
    body: z.string(),
    sender: z.string(),
    sendAt: TimestampSchema.nullable(),
    dateCreated: TimestampSchema,
    /** Its messages by state, counted live by the database. */
    states: z.partialRecord(z.enum(MESSAGE_STATES), z.number().int()),
  })
  .meta({ id: 'Batch' });
export type Batch = z.infer<typeof BatchSchema>;

export const BatchListSchema = ListMetaSchema.extend({
  batches: z.array(BatchSchema),
}).meta({ id: 'BatchList' });
export type BatchList = z.infer<typeof BatchListSchema>;

export const BatchListQuerySchema = pagingSchema(30);

/** What POST /batches answers (201). */
export const CreatedBatchSchema = z
  .object({
    id: IdSchema,
    total: z.number().int(),
    amount: AmountSchema,
    sendAt: TimestampSchema.nullable(),
    dateCreated: TimestampSchema,
  })
  .meta({ id: 'CreatedBatch' });
export type CreatedBatch = z.infer<typeof CreatedBatchSchema>;

/**
 * The batch request. Recipients are checked one by one by the service (a refusal lists the bad
 * entries with their index), so here they are only strings. Sender and body follow the single
 * send's rules; no sender means the provider's short name, as on the single send.
 */
export const CreateBatchSchema = z.object({
  recipients: z
    .array(
      z.string('Each recipient must be a string'),
      'Recipients must be a list',
    )
    .min(1, 'Give at least one recipient')
    .max(
      MAX_BATCH_RECIPIENTS,
      `At most ${MAX_BATCH_RECIPIENTS} recipients in one batch`,
    ),
  body: SendSmsSchema.shape.body,
  sender: SendSmsSchema.shape.sender.optional(),
  sendAt: sendAtSchema().optional(),
});
export type CreateBatchInput = z.input<typeof CreateBatchSchema>;
