import type { AuditEvent } from '../../../shared/schemas/audit.ts';
import {
  endOf,
  startOf,
  type DateOrTime,
} from '../../../shared/schemas/periods.ts';
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../errors.ts';
import * as repo from './repo.ts';

/** The audit log for staff, newest first, filtered by action, actor, target and period. */
export async function listAuditEvents(
  deps: Deps,
  query: Omit<repo.AuditFilter, 'since' | 'before'> & {
    since?: DateOrTime | undefined;
    until?: DateOrTime | undefined;
  },
  page: { count: number; offset: number },
): Promise<{ events: AuditEvent[]; total: number }> {
  const { since, until, ...rest } = query;
  const filter: repo.AuditFilter = {
    ...rest,
    since: since && startOf(since),
    before: until && endOf(until),
  };
  if (filter.since && filter.before && filter.since >= filter.before) {
    throw badRequest('since must be before until');
  }
  return repo.listAuditEvents(deps.db, filter, page);
}
