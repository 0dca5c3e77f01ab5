import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  OwnClient,
  StatusCallbackTest,
} from '../../../../shared/schemas/clients';
import { api, unwrap } from '../../../lib/api-client';
import { clientQueryOptions } from './get-client';

/**
 * Sets the client's callback URLs: the ones given (null stops that kind of callback); a field
 * left out keeps its URL.
 */
export async function setStatusCallbackUrl({
  clientId,
  ...urls
}: {
  clientId: string;
  statusCallbackUrl?: string | null;
  inboundCallbackUrl?: string | null;
}): Promise<OwnClient> {
  return unwrap(
    await api.put<OwnClient>(`/clients/${encodeURIComponent(clientId)}`, {
      body: urls,
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
