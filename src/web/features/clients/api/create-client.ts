import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientWithSecret } from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { clientsQueryOptions } from './get-clients';

/** Creates a client; the answer carries the secret, shown this once. */
export async function createClient(name: string): Promise<ClientWithSecret> {
  return unwrap(
    await api.post<ClientWithSecret>('/clients', { body: { name } }),
  );
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClient,
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: clientsQueryOptions().queryKey,
      }),
  });
}
