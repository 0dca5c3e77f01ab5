import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Client } from '../../../../shared/schemas/clients';
import type { ClientLimitsInput } from '../../../../shared/schemas/prices';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Staff set both (ROLE_CLIENT_ADMIN); the answer is the client. */
export async function setClientLimits(input: {
  clientId: string;
  limits: ClientLimitsInput;
}): Promise<Client> {
  return unwrap(
    await api.put<Client>(
      `/admin/clients/${encodeURIComponent(input.clientId)}/limits`,
      { body: input.limits },
    ),
  );
}

export function useSetClientLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setClientLimits,
    onSuccess: (client) => {
      queryClient.setQueryData(
        queryKeys.admin.clients.detail(client.id),
        client,
      );
      return queryClient.invalidateQueries({
        queryKey: queryKeys.admin.clients.all,
      });
    },
  });
}
