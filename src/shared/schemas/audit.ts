import { z } from 'zod';
import { IdSchema, ListMetaSchema, TimestampSchema } from './common.ts';

/** The audited actions (CONTRACT.md "Accountability"). */
export const AUDIT_ACTIONS = [
  'credit.granted',
  'balance.threshold_changed',
  'role.added',
  'role.removed',
  'user.updated',
  'user.password_changed',
  'client.created',
  'client.renamed',
  'client.deleted',
  'client.secret_reset',
  'auth.throttled',
] as const;
export const AuditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditActionSchema>;

/** Only the fields that changed; never a password, secret or hash. */
const ChangedFieldsSchema = z.record(z.string(), z.unknown()).nullable();

export const AuditEventSchema = z
  .object({
    id: IdSchema,
    action: AuditActionSchema,
    actorUserId: IdSchema.nullable(),
    actorEmail: z.string().nullable(),
    targetType: z.enum(['client', 'user']),
    targetId: z.string(),
    before: ChangedFieldsSchema,
    after: ChangedFieldsSchema,
    ip: z.string().nullable(),
    dateCreated: TimestampSchema,
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEventSchema>;

/** A page of the audit log, newest first. */
export const AuditPageSchema = ListMetaSchema.extend({
  events: z.array(AuditEventSchema),
}).meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof AuditPageSchema>;
