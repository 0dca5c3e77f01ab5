import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OptOut } from '../../../../shared/schemas/optouts';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const optoutPath = (clientId: string, number: string) =>
  `/clients/${encodeURIComponent(clientId)}/optouts/${encodeURIComponent(number)}`;

export interface OptoutInput {
  clientId: string;
  /** Digits only. */
  number: string;
}

/** Opts `number` out of the client's messages (source `api`); answers the opt-out. */
export async function addOptout({
  clientId,
  number,
}: OptoutInput): Promise<OptOut> {
  return unwrap(await api.put<OptOut>(optoutPath(clientId, number)));
}

/** Ends an opt-out the client added; one by the recipient's STOP answers 409. */
export async function removeOptout({
  clientId,
  number,
}: OptoutInput): Promise<void> {
  unwrap(await api.delete(optoutPath(clientId, number)));
}

/**
 * Adding and removing; either changes the list and whether the conversation with the number
 * takes replies, so both are asked again.
 */
export function useOptoutMutations() {
  const queryClient = useQueryClient();
  const onSuccess = (_: unknown, { clientId }: OptoutInput) =>
    Promise.all(
      [
        queryKeys.optouts.ofClient(clientId),
        queryKeys.conversations.ofClient(clientId),
      ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
  return {
    add: useMutation({ mutationFn: addOptout, onSuccess }),
    remove: useMutation({ mutationFn: removeOptout, onSuccess }),
  };
}
