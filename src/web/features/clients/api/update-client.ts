import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Client } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { clientQueryOptions } from './get-client';
import { clientsQueryOptions } from './get-clients';

export async function updateClient(input: {
  clientId: string;
  name: string;
}): Promise<Client> {
  return unwrap(
    await api.put<Client>(`/clients/${encodeURIComponent(input.clientId)}`, {
      body: { name: input.name },
    }),
  );
}

export function useUpdateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClient,
    onSuccess: (client) => {
      queryClient.setQueryData(clientQueryOptions(client.id).queryKey, client);
      return queryClient.invalidateQueries({
        queryKey: clientsQueryOptions().queryKey,
      });
    },
  });
}
