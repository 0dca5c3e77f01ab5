import { queryOptions, useQuery } from '@tanstack/react-query';
import { MAX_PAGE_SIZE } from '../../../../shared/limits';
import type { RouteSplitWithShare } from '../../../../shared/schemas/route-splits';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * A client's route splits. All of them (up to the 300 cap) rather than a page of 30: each
 * split's share of traffic is its weight over the sum of every weight.
 */
export async function getRouteSplits(
  clientId: string,
): Promise<RouteSplitWithShare[]> {
  const list = unwrap(
    await api.get<{ routes: RouteSplitWithShare[] }>('/admin/routes/split', {
      query: { clientId, count: MAX_PAGE_SIZE, offset: 0 },
    }),
  );
  return list.routes;
}

export const routeSplitsQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: queryKeys.admin.routeSplits(clientId),
    queryFn: () => getRouteSplits(clientId),
  });

export function useRouteSplits(clientId: string) {
  return useQuery(routeSplitsQueryOptions(clientId));
}
