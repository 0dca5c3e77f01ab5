import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  OwnClient,
  StatusCallbackTest,
} from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { clientQueryOptions } from './get-client';

/** Sets the client's status callback URL (null stops the callbacks). */
export async function setStatusCallbackUrl({
  clientId,
  statusCallbackUrl,
}: {
  clientId: string;
  statusCallbackUrl: string | null;
}): Promise<OwnClient> {
  return unwrap(
    await api.put<OwnClient>(`/clients/${encodeURIComponent(clientId)}`, {
      body: { statusCallbackUrl },
    }),
  );
}

export function useSetStatusCallbackUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setStatusCallbackUrl,
    onSuccess: (client) =>
      queryClient.setQueryData(clientQueryOptions(client.id).queryKey, client),
  });
}

/** POSTs one signed test event now; the answer says what the receiver did. */
export async function sendTestEvent(
  clientId: string,
): Promise<StatusCallbackTest> {
  return unwrap(
    await api.post<StatusCallbackTest>(
      `/clients/${encodeURIComponent(clientId)}/statusCallback/test`,
    ),
  );
}

export function useSendTestEvent() {
  return useMutation({ mutationFn: sendTestEvent });
}
