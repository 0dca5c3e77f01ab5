import { z } from 'zod';
import {
  AmountSchema,
  IdSchema,
  ListMetaSchema,
  pagingSchema,
  TimestampSchema,
} from './common.ts';
import {
  MESSAGE_STATES,
  SEND_AT_DOCS,
  SendSmsSchema,
  sendAtSchema,
} from './messages.ts';

// Defined with the send, whose schema takes `sendAt` too (an import the other way round would be
// a cycle).
export { MAX_SCHEDULE_DAYS, sendAtSchema } from './messages.ts';

/**
 * CONTRACT "Campaigns: scheduled and bulk sends": sends held until `sendAt`, and one body sent
 * to a list of recipients as a batch (all or nothing).
 */

/** Recipients of one batch. */
export const MAX_BATCH_RECIPIENTS = 10_000;
/** Bad entries a refused batch lists at most. */
export const MAX_LISTED_BAD_ENTRIES = 20;

export const BatchSchema = z
  .object({
    id: IdSchema,
    /** Distinct recipients (duplicates are sent once). */
    total: z.number().int().nonnegative(),
    /** The sum of its messages' prices. */
    amount: AmountSchema,
    body: z.string(),
    sender: z.string(),
    sendAt: TimestampSchema.nullable(),
    dateCreated: TimestampSchema,
    /** Its messages by state, counted live by the database. */
    states: z.partialRecord(
      z.enum(MESSAGE_STATES),
      z.number().int().nonnegative(),
    ),
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
    total: z.number().int().nonnegative(),
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
  sendAt: sendAtSchema().optional().meta(SEND_AT_DOCS),
});
export type CreateBatchInput = z.input<typeof CreateBatchSchema>;
