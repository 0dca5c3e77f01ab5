import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Operations } from '../../../../shared/schemas/operations';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** How often the Operations screen asks again while it is open. */
export const OPERATIONS_REFRESH_MS = 5_000;

/** Per delivery method the last hour's messages, latency and bind; the queue depth. */
export async function getOperations(): Promise<Operations> {
  return unwrap(await api.get<Operations>('/admin/operations'));
}

export const operationsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.admin.operations,
    queryFn: getOperations,
  });

/** Refreshed live while the screen is shown (paused by React Query in a hidden tab). */
export function useOperations() {
  return useQuery({
    ...operationsQueryOptions(),
    refetchInterval: OPERATIONS_REFRESH_MS,
  });
}
