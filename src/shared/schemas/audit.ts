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

/** The console's audit-log filters as typed: blanks mean "any". Days are UTC. */
export const AuditFilterSchema = z
  .object({
    action: z.union([z.literal(''), AuditActionSchema]),
    actorUserId: z.union([
      z.literal(''),
      z.uuid({ message: 'Enter a whole user ID' }),
    ]),
    targetId: z.string().trim().max(100, 'The target ID is too long'),
    since: z.union([z.literal(''), z.iso.date('Enter a date')]),
    until: z.union([z.literal(''), z.iso.date('Enter a date')]),
  })
  .refine((f) => !f.since || !f.until || f.since <= f.until, {
    message: 'Until must not be before Since',
    path: ['until'],
  });
export type AuditFilter = z.infer<typeof AuditFilterSchema>;
