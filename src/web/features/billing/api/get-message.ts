import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Message } from '../../../../shared/schemas/messages';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The message an SMS debit paid for: its body, recipient and segments. */
export async function getMessage(
  clientId: string,
  messageId: string,
): Promise<Message> {
  return unwrap(
    await api.get<Message>(
      `/clients/${encodeURIComponent(clientId)}/messages/${encodeURIComponent(messageId)}`,
    ),
  );
}

export const messageQueryOptions = (clientId: string, messageId: string) =>
  queryOptions({
    queryKey: queryKeys.messages.detail(clientId, messageId),
    queryFn: () => getMessage(clientId, messageId),
    // A sent message's body, recipient and segments never change.
    staleTime: Infinity,
  });

export function useMessage(clientId: string, messageId: string | null) {
  return useQuery({
    ...messageQueryOptions(clientId, messageId ?? ''),
    enabled: messageId !== null,
  });
}
