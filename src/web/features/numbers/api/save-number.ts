import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { PhoneNumber } from '../../../../shared/schemas/numbers';

const numberPath = (number: string) =>
  `/admin/numbers/${encodeURIComponent(number)}`;

export interface AssignNumberInput {
  number: string;
  clientId: string;
  /** Omitted: the provider's HELP_REPLY answers HELP. */
  helpText?: string;
}

/** Assigns `number` to a client, or moves it there (ROLE_NUMBER_ADMIN; audited). */
export async function assignNumber({
  number,
  ...body
}: AssignNumberInput): Promise<PhoneNumber> {
  return unwrap(await api.put<PhoneNumber>(numberPath(number), { body }));
}

/** Releases `number`: inbound messages to it are no longer anyone's. */
export async function releaseNumber(number: string): Promise<void> {
  unwrap(await api.delete(numberPath(number)));
}

/** Assigning and releasing; either reloads every list of numbers staff see. */
export function useNumberMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.admin.numbers.all });
  return {
    assign: useMutation({ mutationFn: assignNumber, onSuccess }),
    release: useMutation({ mutationFn: releaseNumber, onSuccess }),
  };
}
