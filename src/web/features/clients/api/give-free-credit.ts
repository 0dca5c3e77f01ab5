import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Balance } from '../../../../shared/schemas/balances';
import { api, unwrap } from '../../../lib/api-client';
import { balanceChanged } from './get-admin-balance';

/**
 * `amount` is decimal text: it reaches the server's numeric column without a float in between.
 * `reason` (null for none) is kept on the ledger entry; it is sent only when there is one.
 */
export async function giveFreeCredit(input: {
  clientId: string;
  balanceId: string;
  amount: string;
  reason?: string | null;
}): Promise<Balance> {
  const client = encodeURIComponent(input.clientId);
  const balance = encodeURIComponent(input.balanceId);
  return unwrap(
    await api.post<Balance>(
      `/admin/clients/${client}/balances/${balance}/freecredit`,
      {
        body: input.reason
          ? { amount: input.amount, reason: input.reason }
          : { amount: input.amount },
      },
    ),
  );
}

export function useGiveFreeCredit(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: giveFreeCredit,
    onSuccess: (balance) => balanceChanged(queryClient, clientId, balance),
  });
}
