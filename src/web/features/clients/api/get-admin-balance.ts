import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Balance } from '../../../../shared/schemas/balances';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getAdminBalance(clientId: string): Promise<Balance> {
  return unwrap(
    await api.get<Balance>(
      `/admin/clients/${encodeURIComponent(clientId)}/balances/default`,
    ),
  );
}

export const adminBalanceQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: queryKeys.admin.balance(clientId),
    queryFn: () => getAdminBalance(clientId),
  });

export function useAdminBalance(clientId: string) {
  return useQuery(adminBalanceQueryOptions(clientId));
}
