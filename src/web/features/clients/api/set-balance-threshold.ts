import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Balance } from '../../../../shared/schemas/balances';
import { api, unwrap } from '../../../lib/api-client';
import { balanceChanged } from './get-admin-balance';

/**
 * Sets the balance's low-balance threshold. `minThreshold` is canonical decimal text of at
 * most 15 significant digits, so the JSON number carries it exactly.
 */
export async function setBalanceThreshold(input: {
  clientId: string;
  balanceId: string;
  minThreshold: string;
}): Promise<Balance> {
  const client = encodeURIComponent(input.clientId);
  const balance = encodeURIComponent(input.balanceId);
  return unwrap(
    await api.put<Balance>(`/admin/clients/${client}/balances/${balance}`, {
      body: { minThreshold: Number(input.minThreshold) },
    }),
  );
}

export function useSetBalanceThreshold(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBalanceThreshold,
    onSuccess: (balance) => balanceChanged(queryClient, clientId, balance),
  });
}
