import type {
  AuditAction,
  AuditTargetType,
} from '../../shared/schemas/audit.ts';
import type { Actor } from '../auth/principal.ts';
import { storableText } from '../../shared/text.ts';
import type { Queryable } from '../db/client.ts';

/**
 * The write side of the audit log: services call `recordAudit` with the transaction of the
 * change itself, so a change and its record commit or roll back together. The admin feature
 * `features/audit` reads the log.
 */

export type Fields = Record<string, unknown>;

export interface AuditRecord {
  action: AuditAction;
  /** The acting principal; null when nobody is signed in (a throttled login). */
  actor: Actor | null;
  /** The caller's address when there is no actor. */
  ip?: string;
  targetType: AuditTargetType;
  targetId: string | null;
  before?: Fields | null;
  after?: Fields | null;
}

/** Never recorded, whatever a caller passes: credentials stay out of the log. */
const SECRET_FIELD = /password|secret|hash/i;

function withoutSecrets(fields: Fields | null | undefined): Fields | null {
  if (!fields) return null;
  const kept = Object.entries(fields).filter(
    ([name]) => !SECRET_FIELD.test(name),
  );
  return kept.length > 0 ? Object.fromEntries(kept) : null;
}

/** Adds an event to the log; answers its id. */
export async function recordAudit(
  q: Queryable,
  record: AuditRecord,
): Promise<string> {
  const [row] = await q.query<{ id: string | number }>(
    `INSERT INTO audit_events (action, actor_user_id, actor_email, target_type, target_id,
       before, after, ip)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8)
     RETURNING id`,
    [
      record.action,
      record.actor?.user.id ?? null,
      record.actor?.user.email ?? null,
      record.targetType,
      record.targetId,
      json(withoutSecrets(record.before)),
      json(withoutSecrets(record.after)),
      record.actor?.ip ?? record.ip ?? null,
    ],
  );
  return String(row?.id);
}

function json(fields: Fields | null): string | null {
  return fields === null ? null : JSON.stringify(fields);
}

/**
 * The fields whose value differs between two versions of a record, as `before` and `after`;
 * undefined when nothing changed (nothing to record).
 */
export function changedFields<T extends Fields>(
  before: T,
  after: T,
  names: readonly (keyof T & string)[],
): { before: Fields; after: Fields } | undefined {
  const changed = names.filter(
    (name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]),
  );
  if (changed.length === 0) return undefined;
  return {
    before: Object.fromEntries(changed.map((name) => [name, before[name]])),
    after: Object.fromEntries(changed.map((name) => [name, after[name]])),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How much of a user name tried (attacker's text) a throttle event keeps. */
export const THROTTLED_NAME_MAX = 100;

/**
 * Records that sign-ins from an address are refused: called once per address and lock by
 * `ThrottledLog`, which then keeps the event's count of refused tries current. `account` is
 * the first user name refused: an e-mail (the target is that user, if there is one) or a client
 * id, kept to its first 100 characters. Outside any change, so it runs on its own; a failure to
 * record is the caller's to log. Answers the event's id.
 */
export async function recordThrottled(
  q: Queryable,
  attempt: { account: string; ip: string; retryAfterSeconds: number },
): Promise<string> {
  const isClient = UUID.test(attempt.account);
  const [target] = isClient
    ? await q.query<{ id: string }>(
        'SELECT user_id AS id FROM clients WHERE id = $1',
        [attempt.account],
      )
    : await q.query<{ id: string }>(
        'SELECT id FROM users WHERE lower(email) = lower($1)',
        [attempt.account],
      );
  const tried = storableText(attempt.account, THROTTLED_NAME_MAX);
  return recordAudit(q, {
    action: 'auth.throttled',
    actor: null,
    ip: attempt.ip,
    targetType: 'user',
    targetId: target?.id ?? null,
    after: {
      ...(isClient ? { clientId: tried } : { email: tried }),
      retryAfterSeconds: attempt.retryAfterSeconds,
      refused: 1,
      refusedForOthers: 0,
    },
  });
}

/**
 * Brings throttle events' counts up to date, all in one statement: `refused` tries from the
 * address during the lock, `refusedForOthers` of them naming another account than the event.
 */
export async function updateThrottledCounts(
  q: Queryable,
  counts: readonly { id: string; refused: number; refusedForOthers: number }[],
): Promise<void> {
  if (counts.length === 0) return;
  await q.query(
    `UPDATE audit_events a
     SET after = a.after || jsonb_build_object('refused', c.refused,
                                               'refusedForOthers', c.others)
     FROM unnest($1::bigint[], $2::int[], $3::int[]) AS c (id, refused, others)
     WHERE a.id = c.id AND a.action = 'auth.throttled'`,
    [
      counts.map((c) => c.id),
      counts.map((c) => c.refused),
      counts.map((c) => c.refusedForOthers),
    ],
  );
}
