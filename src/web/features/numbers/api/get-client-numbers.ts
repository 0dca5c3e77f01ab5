import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { PhoneNumber } from '../../../../shared/schemas/numbers';

/**
 * The numbers a client holds: its owner's call, or staff's under /admin (CONTRACT "Two-way
 * messaging"). Either answers `{numbers}`, the whole list (a client holds few).
 */
export async function getClientNumbers(
  clientId: string,
  asAdmin = false,
): Promise<PhoneNumber[]> {
  const body = unwrap(
    await api.get<{ numbers: PhoneNumber[] }>(
      `${asAdmin ? '/admin' : ''}/clients/${encodeURIComponent(clientId)}/numbers`,
    ),
  );
  return body.numbers;
}

export const clientNumbersQueryOptions = (clientId: string, asAdmin = false) =>
  queryOptions({
    queryKey: queryKeys.numbers.ofClient(clientId, asAdmin),
    queryFn: () => getClientNumbers(clientId, asAdmin),
  });

export function useClientNumbers(clientId: string, asAdmin = false) {
  return useQuery(clientNumbersQueryOptions(clientId, asAdmin));
}
