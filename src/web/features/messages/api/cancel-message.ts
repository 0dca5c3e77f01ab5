import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Message } from '../../../../shared/schemas/messages';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { messagesPath } from '../message-log-model';

/** A SCHEDULED message becomes CANCELED and is refunded (CONTRACT "Campaigns"); else 409. */
export async function cancelMessage(input: {
  clientId: string;
  messageId: string;
}): Promise<Message> {
  return unwrap(
    await api.post<Message>(
      `${messagesPath({ clientId: input.clientId })}/${encodeURIComponent(input.messageId)}/cancel`,
    ),
  );
}

/** The message, the log, its batch and the balance change with a cancel: all are asked again. */
export function useCancelMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelMessage,
    onSettled: (_message, _error, { clientId }) => {
      for (const queryKey of [
        queryKeys.messages.ofClient(clientId),
        queryKeys.balances.default(clientId),
        queryKeys.batches.ofClient(clientId),
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
