import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Batch } from '../../../../shared/schemas/campaigns';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Cancels the batch's SCHEDULED messages, refunded (CONTRACT "Campaigns"). */
export async function cancelBatch(input: {
  clientId: string;
  batchId: string;
}): Promise<Batch> {
  return unwrap(
    await api.post<Batch>(
      `/clients/${encodeURIComponent(input.clientId)}/batches/${encodeURIComponent(input.batchId)}/cancel`,
    ),
  );
}

/** The batch, its list, the balance and the log change with a cancel: all are asked again. */
export function useCancelBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelBatch,
    onSuccess: (batch, { clientId }) => {
      queryClient.setQueryData(
        queryKeys.batches.detail(clientId, batch.id),
        batch,
      );
      void queryClient.invalidateQueries({
        queryKey: queryKeys.batches.ofClient(clientId),
      });
      void queryClient.invalidateQueries({
        queryKey: queryKeys.balances.default(clientId),
      });
      void queryClient.invalidateQueries({
        queryKey: queryKeys.messages.ofClient(clientId),
      });
    },
  });
}
