import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import type { Usage } from '../../../../shared/schemas/balances';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UsageQuery {
  clientId: string;
  /** First and last UTC day, `YYYY-MM-DD`, both included. */
  since: string;
  until: string;
}

/** Messages, segments and amount spent per UTC day of the range (zeros included). */
export async function getUsage({
  clientId,
  since,
  until,
}: UsageQuery): Promise<Usage> {
  return unwrap(
    await api.get<Usage>(
      `/clients/${encodeURIComponent(clientId)}/balances/default/usage`,
      { query: { since, until } },
    ),
  );
}

export const usageQueryOptions = (query: UsageQuery) =>
  queryOptions({
    queryKey: queryKeys.balances.usage(query.clientId, query),
    queryFn: () => getUsage(query),
  });

/** The chart keeps the previous range drawn while a new one loads. */
export function useUsage(query: UsageQuery) {
  return useQuery({
    ...usageQueryOptions(query),
    placeholderData: keepPreviousData,
  });
}
