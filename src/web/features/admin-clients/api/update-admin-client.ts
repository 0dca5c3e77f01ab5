import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Client } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { adminClientQueryOptions } from './get-admin-client';

export async function updateAdminClient(input: {
  clientId: string;
  name: string;
}): Promise<Client> {
  return unwrap(
    await api.put<Client>(
      `/admin/clients/${encodeURIComponent(input.clientId)}`,
      { body: { name: input.name } },
    ),
  );
}

export function useUpdateAdminClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAdminClient,
    onSuccess: (client) => {
      queryClient.setQueryData(
        adminClientQueryOptions(client.id).queryKey,
        client,
      );
      return queryClient.invalidateQueries({
        queryKey: ['admin', 'clients', 'list'],
      });
    },
  });
}
