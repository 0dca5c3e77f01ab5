import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { clientQueryOptions } from './get-client';
import { clientsQueryOptions } from './get-clients';

export async function deleteClient(clientId: string): Promise<void> {
  unwrap(await api.delete(`/clients/${encodeURIComponent(clientId)}`));
}

export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteClient,
    onSuccess: (_result, clientId) => {
      queryClient.removeQueries({
        queryKey: clientQueryOptions(clientId).queryKey,
      });
      return queryClient.invalidateQueries({
        queryKey: clientsQueryOptions().queryKey,
      });
    },
  });
}
