import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Client } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { clientQueryOptions } from './get-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UpdateClientInput {
  clientId: string;
  name: string;
  /** An admin renaming any client (PUT /api/admin/clients/{id}); else one's own. */
  asAdmin?: boolean;
}

export async function updateClient({
  clientId,
  name,
  asAdmin = false,
}: UpdateClientInput): Promise<Client> {
  const path = `${asAdmin ? '/admin' : ''}/clients/${encodeURIComponent(clientId)}`;
  return unwrap(await api.put<Client>(path, { body: { name } }));
}

export function useUpdateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClient,
    onSuccess: (client) => {
      queryClient.setQueryData(clientQueryOptions(client.id).queryKey, client);
      // Every list and the admin pages may show the old name.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.clients.list }),
        queryClient.invalidateQueries({
          queryKey: queryKeys.admin.clients.all,
        }),
      ]);
    },
  });
}
