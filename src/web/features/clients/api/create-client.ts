import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientWithSecret } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface CreateClientInput {
  name: string;
  /** An admin creating the client for this user (POST /api/admin/clients); else for oneself. */
  userId?: string;
}

/** Creates a client; the answer carries the secret, shown this once. */
export async function createClient({
  name,
  userId,
}: CreateClientInput): Promise<ClientWithSecret> {
  return unwrap(
    userId === undefined
      ? await api.post<ClientWithSecret>('/clients', { body: { name } })
      : await api.post<ClientWithSecret>('/admin/clients', {
          body: { userId, name },
        }),
  );
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClient,
    // The customer's own list and the admin lists may all hold the new client.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.clients.all }),
        queryClient.invalidateQueries({
          queryKey: queryKeys.admin.clients.all,
        }),
      ]),
  });
}
