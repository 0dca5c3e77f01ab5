import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Batch } from '../../../../shared/schemas/campaigns';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { batchRefreshMs } from '../batch-progress-model';

export async function getBatch(
  clientId: string,
  batchId: string,
): Promise<Batch> {
  return unwrap(
    await api.get<Batch>(
      `/clients/${encodeURIComponent(clientId)}/batches/${encodeURIComponent(batchId)}`,
    ),
  );
}

export const batchQueryOptions = (clientId: string, batchId: string) =>
  queryOptions({
    queryKey: queryKeys.batches.detail(clientId, batchId),
    queryFn: () => getBatch(clientId, batchId),
  });

/** One batch, asked again every few seconds until every message is final. */
export function useBatch(clientId: string, batchId: string) {
  return useQuery({
    ...batchQueryOptions(clientId, batchId),
    staleTime: 0,
    refetchInterval: (current) => batchRefreshMs(current.state.data),
  });
}
