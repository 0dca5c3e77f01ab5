import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { OptOutList } from '../../../../shared/schemas/optouts';

/** A page of the client's opt-outs. */
export async function getOptouts(
  clientId: string,
  offset: number,
): Promise<OptOutList> {
  return unwrap(
    await api.get<OptOutList>(
      `/clients/${encodeURIComponent(clientId)}/optouts`,
      { query: { count: DEFAULT_PAGE_SIZE, offset } },
    ),
  );
}

export const optoutsQueryOptions = (clientId: string, offset: number) =>
  queryOptions({
    queryKey: queryKeys.optouts.list(clientId, offset),
    queryFn: () => getOptouts(clientId, offset),
  });

export function useOptouts(clientId: string, offset: number) {
  return useQuery({
    ...optoutsQueryOptions(clientId, offset),
    placeholderData: keepPreviousData,
    // Changed by what arrives (a reply, a STOP), not only by this user: asked again whenever
    // the screen is opened rather than kept for the app's 30 s.
    staleTime: 0,
  });
}
