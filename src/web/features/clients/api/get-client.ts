import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';

export async function getClient(clientId: string): Promise<Client> {
  return unwrap(
    await api.get<Client>(`/clients/${encodeURIComponent(clientId)}`),
  );
}

export const clientQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: ['clients', 'detail', clientId],
    queryFn: () => getClient(clientId),
  });

export function useClient(clientId: string) {
  return useQuery(clientQueryOptions(clientId));
}
