import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CanceledCount } from '../../../../shared/schemas/clients';
import type { MessageList } from '../../../../shared/schemas/messages';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** How many of a client's messages wait (SCHEDULED or ACCEPTED): what a stop would cancel at most. */
export function useWaitingMessages(clientId: string) {
  return useQuery({
    queryKey: queryKeys.messages.list(clientId, true, { waiting: true }),
    queryFn: async () => {
      const totals = await Promise.all(
        (['SCHEDULED', 'ACCEPTED'] as const).map(
          async (state) =>
            unwrap(
              await api.get<MessageList>(
                `/admin/clients/${encodeURIComponent(clientId)}/messages`,
                { query: { state, count: 1 } },
              ),
            ).total,
        ),
      );
      return totals[0]! + totals[1]!;
    },
  });
}

/** Staff stop a client's traffic (ROLE_CLIENT_ADMIN): answers how many were cancelled. */
export async function stopClientTraffic(
  clientId: string,
): Promise<CanceledCount> {
  return unwrap(
    await api.post<CanceledCount>(
      `/admin/clients/${encodeURIComponent(clientId)}/messages/cancel`,
      { body: {} },
    ),
  );
}

export function useStopClientTraffic(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => stopClientTraffic(clientId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({
          queryKey: ['admin', 'messages', clientId],
        }),
        queryClient.invalidateQueries({
          queryKey: queryKeys.admin.clients.all,
        }),
      ]),
  });
}
