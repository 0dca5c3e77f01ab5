import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import type { ClientList } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The user's clients: 30 at offset 0 (spec §4, §9), which is all of them. */
export async function getClients(): Promise<ClientList> {
  return unwrap(
    await api.get<ClientList>('/clients', {
      query: { count: DEFAULT_PAGE_SIZE, offset: 0 },
    }),
  );
}

export const clientsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.clients.list, queryFn: getClients });

export function useClients() {
  return useQuery(clientsQueryOptions());
}
