import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import type { AuditFilter, AuditList } from '../../../../shared/schemas/audit';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface AuditQuery extends AuditFilter {
  offset: number;
}

/**
 * A page of the audit log, newest first: 30 at `offset` matching the filters. The days of the
 * filter are UTC and both included, so they are sent as the first and last moment of the day.
 */
export async function getAuditEvents(query: AuditQuery): Promise<AuditList> {
  return unwrap(
    await api.get<AuditList>('/admin/audit', {
      query: {
        count: DEFAULT_PAGE_SIZE,
        offset: query.offset,
        action: query.action || undefined,
        actorUserId: query.actorUserId || undefined,
        targetId: query.targetId || undefined,
        since: query.since ? `${query.since}T00:00:00.000Z` : undefined,
        until: query.until ? `${query.until}T23:59:59.999Z` : undefined,
      },
    }),
  );
}

export const auditEventsQueryOptions = (query: AuditQuery) =>
  queryOptions({
    queryKey: queryKeys.admin.audit(query),
    queryFn: () => getAuditEvents(query),
  });

/** The previous page stays on screen while the next one loads. */
export function useAuditEvents(query: AuditQuery) {
  return useQuery({
    ...auditEventsQueryOptions(query),
    placeholderData: keepPreviousData,
  });
}
