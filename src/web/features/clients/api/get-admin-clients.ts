import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import type { ClientList } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface AdminClientsQuery {
  offset?: number;
  /** 30 by default (spec §9); a user's clients are asked 300 at a time. */
  count?: number;
  userId?: string;
  /** Case-insensitive search over the name, or an exact client id. */
  q?: string;
}

export async function getAdminClients({
  offset = 0,
  count = DEFAULT_PAGE_SIZE,
  userId,
  q,
}: AdminClientsQuery): Promise<ClientList> {
  return unwrap(
    await api.get<ClientList>('/admin/clients', {
      query: { count, offset, userId, q: q || undefined },
    }),
  );
}

export const adminClientsQueryOptions = (query: AdminClientsQuery) =>
  queryOptions({
    queryKey: queryKeys.admin.clients.list(query),
    queryFn: () => getAdminClients(query),
  });

/** A page of the clients table; the previous page stays on screen while the next one loads. */
export function useAdminClients(query: AdminClientsQuery) {
  return useQuery({
    ...adminClientsQueryOptions(query),
    placeholderData: keepPreviousData,
  });
}
