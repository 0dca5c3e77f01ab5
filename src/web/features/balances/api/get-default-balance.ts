import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Balance } from '../../../../shared/schemas/balances';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getDefaultBalance(clientId: string): Promise<Balance> {
  return unwrap(
    await api.get<Balance>(
      `/clients/${encodeURIComponent(clientId)}/balances/default`,
    ),
  );
}

export const defaultBalanceQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: queryKeys.balances.default(clientId),
    queryFn: () => getDefaultBalance(clientId),
  });

/** The current client's balance; reloads when the client changes (a new key). */
export function useDefaultBalance(clientId: string | null) {
  return useQuery({
    ...defaultBalanceQueryOptions(clientId ?? ''),
    enabled: clientId !== null,
  });
}
