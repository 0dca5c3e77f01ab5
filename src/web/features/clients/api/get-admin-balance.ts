import {
  queryOptions,
  useQuery,
  type QueryClient,
} from '@tanstack/react-query';
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

/**
 * After staff changed a client's balance (free credit, threshold): the admin page shows the
 * answer at once, and the customer's own widget and Quick Start, which read the same balance
 * and decide their warning from it, fetch it again.
 */
export function balanceChanged(
  queryClient: QueryClient,
  clientId: string,
  balance: Balance,
): Promise<void> {
  queryClient.setQueryData(
    adminBalanceQueryOptions(clientId).queryKey,
    balance,
  );
  return queryClient.invalidateQueries({
    queryKey: queryKeys.balances.default(clientId),
  });
}
