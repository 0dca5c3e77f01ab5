import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getClient(clientId: string): Promise<Client> {
  return unwrap(
    await api.get<Client>(`/clients/${encodeURIComponent(clientId)}`),
  );
}

export const clientQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: queryKeys.clients.detail(clientId),
    queryFn: () => getClient(clientId),
  });

export function useClient(clientId: string) {
  return useQuery(clientQueryOptions(clientId));
}
