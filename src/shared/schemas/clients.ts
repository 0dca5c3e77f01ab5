import { z } from 'zod';
import {
  IdSchema,
  ListMetaSchema,
  nameText,
  TimestampSchema,
} from './common.ts';

export const ClientNameSchema = nameText('Name')
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name is too long');

export const ClientSchema = z
  .object({
    id: IdSchema,
    userId: IdSchema,
    name: z.string(),
    dateCreated: TimestampSchema,
    dateUpdated: TimestampSchema,
    /** When the secret was last used: null until then; moves at most once a minute. */
    secretLastUsedAt: TimestampSchema.nullable(),
    /** The prefixes it may send to; null: every open destination. Set by staff. */
    allowedPrefixes: z.array(z.string()).nullable(),
    /** Messages a second it may send, over all nodes; null: no limit. Set by staff. */
    maxMessagesPerSecond: z.number().int().nonnegative().nullable(),
  })
  .meta({ id: 'Client' });
export type Client = z.infer<typeof ClientSchema>;

/** Returned once, by create and reset-secret: the only time the secret is ever shown. */
export const ClientWithSecretSchema = ClientSchema.extend({
  secret: z.string(),
}).meta({ id: 'ClientWithSecret' });
export type ClientWithSecret = z.infer<typeof ClientWithSecretSchema>;

export const ClientListSchema = ListMetaSchema.extend({
  clients: z.array(ClientSchema),
});
export type ClientList = z.infer<typeof ClientListSchema>;

/**
 * Where the client's message state changes are POSTed (CONTRACT.md "Status callbacks"); the
 * owner only sees it with its signing key. Admin answers and API-client credentials never do.
 */
export const OwnClientSchema = ClientSchema.extend({
  statusCallbackUrl: z.string().nullable(),
  /**
   * Null until a callback URL (status or inbound) is set first; kept when the URLs change or
   * are removed. Signs both kinds of callback.
   */
  statusCallbackSigningKey: z.string().nullable(),
  /** Where each inbound message of the client is POSTed (CONTRACT.md "Two-way messaging"). */
  inboundCallbackUrl: z.string().nullable(),
}).meta({ id: 'OwnClient' });
export type OwnClient = z.infer<typeof OwnClientSchema>;

/**
 * A callback URL field: an http(s) URL, or null (or an empty field) to stop the callbacks.
 * `label` names it in the messages ("Status callback URL").
 */
function callbackUrlSchema(label: string) {
  return z
    .string(`${label} must be a string or null`)
    .trim()
    .max(2048, `${label} is too long`)
    .refine(
      (value) =>
        value === '' || (/^https?:\/\//i.test(value) && URL.canParse(value)),
      `${label} must be an http or https URL`,
    )
    .transform((value) => (value === '' ? null : value))
    .nullable();
}

export const StatusCallbackUrlSchema = callbackUrlSchema('Status callback URL');
export const InboundCallbackUrlSchema = callbackUrlSchema(
  'Inbound callback URL',
);

export const CreateClientSchema = z.object({ name: ClientNameSchema });
export const UpdateClientSchema = z.object({ name: ClientNameSchema });
/** The owner's PUT: a new name, a status callback URL, an inbound callback URL, or several. */
export const UpdateOwnClientSchema = z
  .object({
    name: ClientNameSchema.optional(),
    statusCallbackUrl: StatusCallbackUrlSchema.optional(),
    inboundCallbackUrl: InboundCallbackUrlSchema.optional(),
  })
  .refine(
    (body) =>
      body.name !== undefined ||
      body.statusCallbackUrl !== undefined ||
      body.inboundCallbackUrl !== undefined,
    'Give a name, a statusCallbackUrl or an inboundCallbackUrl',
  );
export type UpdateOwnClientInput = z.infer<typeof UpdateOwnClientSchema>;
export const AdminCreateClientSchema = z.object({
  userId: IdSchema,
  name: ClientNameSchema,
});

/** The longest grace a replaced secret may keep: a week. */
export const MAX_SECRET_GRACE_SECONDS = 604_800;

/**
 * Optional body of reset-secret: how long the replaced secret keeps working, so an
 * integration can switch to the new one without an outage. None by default.
 */
export const ResetSecretSchema = z
  .object({
    graceSeconds: z
      .number('Grace period must be a whole number of seconds')
      .int('Grace period must be a whole number of seconds')
      .min(0, 'Grace period cannot be negative')
      .max(
        MAX_SECRET_GRACE_SECONDS,
        'Grace period cannot be longer than 604800 seconds (7 days)',
      )
      .optional(),
  })
  .strict()
  // A call without a body (the spec's flow) arrives as null.
  .nullish();
export type ResetSecretInput = z.infer<typeof ResetSecretSchema>;

/** When the client's secret last authenticated a call; null until it is used. */
export const ClientKeyUsageSchema = ClientSchema.pick({
  secretLastUsedAt: true,
});
export type ClientKeyUsage = z.infer<typeof ClientKeyUsageSchema>;

/** The answer of "Send test event": what the receiver did with one signed test event. */
export const StatusCallbackTestSchema = z
  .object({
    /** A 2xx answer. */
    ok: z.boolean(),
    /** The receiver's HTTP status; null when it did not answer or the target was refused. */
    status: z.number().int().nonnegative().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().int().nonnegative(),
  })
  .meta({ id: 'StatusCallbackTest' });
export type StatusCallbackTest = z.infer<typeof StatusCallbackTestSchema>;

/** The answer of rotateKey: the new signing key (the old one signs nothing any more). */
export const RotatedSigningKeySchema = z
  .object({ statusCallbackSigningKey: z.string() })
  .meta({ id: 'RotatedSigningKey' });
export type RotatedSigningKey = z.infer<typeof RotatedSigningKeySchema>;

/** Body of staff's "stop traffic": the client's messages, or only those of one of its batches. */
export const CancelClientMessagesSchema = z
  .object({ batchId: IdSchema.optional() })
  .strict()
  // A call without a body arrives as null: the whole client.
  .nullish();
export type CancelClientMessagesInput = z.infer<
  typeof CancelClientMessagesSchema
>;

/** How many messages a cancel moved to CANCELED (each refunded once). */
export const CanceledCountSchema = z
  .object({ canceled: z.number().int().nonnegative() })
  .meta({ id: 'CanceledCount' });
export type CanceledCount = z.infer<typeof CanceledCountSchema>;
