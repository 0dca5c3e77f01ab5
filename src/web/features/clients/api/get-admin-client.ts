import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getAdminClient(clientId: string): Promise<Client> {
  return unwrap(
    await api.get<Client>(`/admin/clients/${encodeURIComponent(clientId)}`),
  );
}

export const adminClientQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: queryKeys.admin.clients.detail(clientId),
    queryFn: () => getAdminClient(clientId),
  });

export function useAdminClient(clientId: string) {
  return useQuery(adminClientQueryOptions(clientId));
}
