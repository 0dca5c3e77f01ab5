import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  OwnClient,
  RotatedSigningKey,
} from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Replaces the status callback signing key; the old one signs nothing afterwards. */
export async function rotateSigningKey(
  clientId: string,
): Promise<RotatedSigningKey> {
  return unwrap(
    await api.post<RotatedSigningKey>(
      `/clients/${encodeURIComponent(clientId)}/statusCallback/rotateKey`,
    ),
  );
}

/** The client's cached detail shows the new key at once. */
export function useRotateSigningKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateSigningKey,
    onSuccess: ({ statusCallbackSigningKey }, clientId) =>
      queryClient.setQueryData<OwnClient>(
        queryKeys.clients.detail(clientId),
        (client) => client && { ...client, statusCallbackSigningKey },
      ),
  });
}
