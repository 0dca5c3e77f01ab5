import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import type { BatchList } from '../../../../shared/schemas/campaigns';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { batchRefreshMs } from '../batch-progress-model';

export const BATCH_PAGE_SIZE = 30;

/** A page of the client's batches, newest first, each with its messages by state. */
export async function getBatches(
  clientId: string,
  offset: number,
): Promise<BatchList> {
  return unwrap(
    await api.get<BatchList>(
      `/clients/${encodeURIComponent(clientId)}/batches`,
      {
        query: { count: BATCH_PAGE_SIZE, offset },
      },
    ),
  );
}

export const batchesQueryOptions = (clientId: string, offset: number) =>
  queryOptions({
    queryKey: queryKeys.batches.list(clientId, offset),
    queryFn: () => getBatches(clientId, offset),
  });

/** The list refreshes itself while a listed batch still has messages on their way. */
export function useBatches(clientId: string, offset: number) {
  return useQuery({
    ...batchesQueryOptions(clientId, offset),
    staleTime: 0,
    placeholderData: keepPreviousData,
    refetchInterval: (current) => {
      const waits = (current.state.data?.batches ?? [])
        .map(batchRefreshMs)
        .filter((ms) => ms !== false);
      return waits.length ? Math.min(...waits) : false;
    },
  });
}
