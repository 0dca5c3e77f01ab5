import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeliveryMethod } from '../../../../shared/limits';
import type { RouteSplit } from '../../../../shared/schemas/route-splits';
import { api, unwrap } from '../../../lib/api-client';
import { routeSplitsQueryOptions } from './get-route-splits';

export interface RouteSplitValues {
  deliveryMethod: DeliveryMethod;
  weight: number;
}

export async function createRouteSplit(
  input: RouteSplitValues & { userId: string; clientId: string },
): Promise<RouteSplit> {
  return unwrap(
    await api.post<RouteSplit>('/admin/routes/split', { body: input }),
  );
}

export async function updateRouteSplit({
  id,
  ...values
}: RouteSplitValues & { id: string }): Promise<RouteSplit> {
  return unwrap(
    await api.put<RouteSplit>(`/admin/routes/split/${encodeURIComponent(id)}`, {
      body: values,
    }),
  );
}

/** Deletes exactly the split with this id (CONTRACT.md fixes the spec's id-less DELETE). */
export async function deleteRouteSplit(id: string): Promise<void> {
  unwrap(await api.delete(`/admin/routes/split/${encodeURIComponent(id)}`));
}

/** Create, update and delete of one client's splits; each refreshes that client's list. */
export function useRouteSplitMutations(clientId: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    queryClient.invalidateQueries({
      queryKey: routeSplitsQueryOptions(clientId).queryKey,
    });
  return {
    create: useMutation({ mutationFn: createRouteSplit, onSuccess: refresh }),
    update: useMutation({ mutationFn: updateRouteSplit, onSuccess: refresh }),
    remove: useMutation({ mutationFn: deleteRouteSplit, onSuccess: refresh }),
  };
}
