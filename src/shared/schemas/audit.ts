import { z } from 'zod';
import {
  IdSchema,
  idOf,
  UUID_EXAMPLE,
  ListMetaSchema,
  pagingSchema,
  TimestampSchema,
} from './common.ts';
import { DateOrTimeSchema } from './periods.ts';
import { DEFAULT_PAGE_SIZE } from '../limits.ts';

/** Every action the audit log records (CONTRACT.md, Accountability). */
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
  'client.status_callback_changed',
  'client.signing_key_rotated',
  'client.limits_changed',
  'client.messages_canceled',
  'route_split.created',
  'route_split.updated',
  'route_split.deleted',
  'auth.throttled',
  'price.changed',
  'price.imported',
  'number.assigned',
  'number.released',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = [
  'user',
  'client',
  'price',
  'number',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** Only the fields that changed; never a password, secret or hash. */
const ChangeSchema = z.record(z.string(), z.unknown()).nullable();

export const AuditEventSchema = z
  .object({
    id: z.string(),
    action: z.enum(AUDIT_ACTIONS),
    /** Null when nobody was signed in (a throttled login). */
    actorUserId: IdSchema.nullable(),
    actorEmail: z.string().nullable(),
    targetType: z.enum(AUDIT_TARGET_TYPES),
    /**
     * A user's or client's id, a price's prefix or a number's digits; null when the target is not known (a
     * throttled login for an unknown e-mail).
     */
    targetId: z.string().nullable(),
    before: ChangeSchema,
    after: ChangeSchema,
    ip: z.string().nullable(),
    dateCreated: TimestampSchema,
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditListSchema = ListMetaSchema.extend({
  events: z.array(AuditEventSchema),
});
export type AuditList = z.infer<typeof AuditListSchema>;

/** The filters as the console labels them: the API's refusals name them so too. */
const ACTOR_LABEL = 'Actor user ID';
const TARGET_LABEL = 'Target ID';

/**
 * A target is a user's or client's id, a price's prefix or a number's digits: the filter takes
 * any of them, so "who moved this number" is one search.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isTargetId = (value: string) =>
  UUID.test(value) || /^\d{1,15}$/.test(value);
const TARGET_MESSAGE = `${TARGET_LABEL} must be a UUID such as ${UUID_EXAMPLE}, or the digits of a price prefix or number`;

export const AuditQuerySchema = pagingSchema(DEFAULT_PAGE_SIZE).extend({
  action: z.enum(AUDIT_ACTIONS, { message: 'Unknown action' }).optional(),
  actorUserId: idOf(ACTOR_LABEL).optional(),
  targetId: z.string().trim().refine(isTargetId, TARGET_MESSAGE).optional(),
  since: DateOrTimeSchema.optional(),
  until: DateOrTimeSchema.optional(),
});

/** The console's audit-log filters as typed: blanks mean "any". Days are UTC. */
export const AuditFilterSchema = z
  .object({
    action: z.union([z.literal(''), z.enum(AUDIT_ACTIONS)]),
    actorUserId: z
      .string()
      .trim()
      .pipe(z.union([z.literal(''), idOf(ACTOR_LABEL)])),
    targetId: z
      .string()
      .trim()
      .refine((value) => value === '' || isTargetId(value), TARGET_MESSAGE),
    since: z.union([z.literal(''), z.iso.date('Enter a date')]),
    until: z.union([z.literal(''), z.iso.date('Enter a date')]),
  })
  .refine((f) => !f.since || !f.until || f.since <= f.until, {
    message: 'Until must not be before Since',
    path: ['until'],
  });
export type AuditFilter = z.infer<typeof AuditFilterSchema>;
