import type {
  AuditAction,
  AuditEvent,
  AuditTargetType,
} from '../../../shared/schemas/audit.ts';
import type { Queryable } from '../../db/client.ts';
import { selectPage } from '../../db/paging.ts';

interface AuditRow {
  id: string;
  action: AuditAction;
  actor_user_id: string | null;
  actor_email: string | null;
  target_type: AuditTargetType;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  date_created: Date;
}

function toAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    action: row.action,
    actorUserId: row.actor_user_id,
    actorEmail: row.actor_email,
    targetType: row.target_type,
    targetId: row.target_id,
    before: row.before,
    after: row.after,
    ip: row.ip,
    dateCreated: row.date_created.toISOString(),
  };
}

export interface AuditFilter {
  action?: AuditAction | undefined;
  actorUserId?: string | undefined;
  targetId?: string | undefined;
  /** ISO time, included. */
  since?: string | undefined;
  /** ISO time, excluded. */
  before?: string | undefined;
}

/** One page of the audit log, newest first (ids grow in the order events were recorded). */
export async function listAuditEvents(
  q: Queryable,
  filter: AuditFilter,
  page: { count: number; offset: number },
): Promise<{ events: AuditEvent[]; total: number }> {
  const { items, total } = await selectPage(
    q,
    {
      columns: `id::text AS id, action, actor_user_id, actor_email, target_type, target_id,
        before, after, ip, date_created`,
      from: 'audit_events',
      where: `($1::text IS NULL OR action = $1)
        AND ($2::uuid IS NULL OR actor_user_id = $2)
        AND ($3::text IS NULL OR target_id = lower($3))
        AND ($4::timestamptz IS NULL OR date_created >= $4)
        AND ($5::timestamptz IS NULL OR date_created < $5)`,
      params: [
        filter.action ?? null,
        filter.actorUserId ?? null,
        filter.targetId ?? null,
        filter.since ?? null,
        filter.before ?? null,
      ],
      // Qualified: a bare `id` would be the text column of the select list.
      orderBy: 'audit_events.id DESC',
    },
    page,
    toAuditEvent,
  );
  return { events: items, total };
}
