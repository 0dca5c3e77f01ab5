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

export const CreateClientSchema = z.object({ name: ClientNameSchema });
export const UpdateClientSchema = z.object({ name: ClientNameSchema });
export const AdminCreateClientSchema = z.object({
  userId: IdSchema,
  name: ClientNameSchema,
});

/** When the client's secret last authenticated a call; null until it is used. */
export const ClientKeyUsageSchema = z.object({
  secretLastUsedAt: TimestampSchema.nullable(),
});
export type ClientKeyUsage = z.infer<typeof ClientKeyUsageSchema>;

/** A week: the longest the replaced secret may keep working after a reset. */
export const MAX_GRACE_SECONDS = 604_800;

/** POST /api/clients/{id}/resetSecret: how long the old secret keeps working (default 0). */
export const ResetSecretSchema = z.object({
  graceSeconds: z
    .number()
    .int('graceSeconds must be an integer')
    .min(0, 'graceSeconds must not be negative')
    .max(MAX_GRACE_SECONDS, `graceSeconds must be at most ${MAX_GRACE_SECONDS}`)
    .default(0),
});
export type ResetSecretInput = z.input<typeof ResetSecretSchema>;
