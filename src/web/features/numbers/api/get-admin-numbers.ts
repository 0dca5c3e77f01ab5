import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { NumberList } from '../../../../shared/schemas/numbers';

export interface AdminNumbersQuery {
  offset: number;
  /** Part of a number. */
  q: string;
  /** Only this client's numbers; '' for every client. */
  clientId: string;
}

/** A page of every assigned number (ROLE_NUMBER_ADMIN), filtered by `q` and `clientId`. */
export async function getAdminNumbers({
  offset,
  q,
  clientId,
}: AdminNumbersQuery): Promise<NumberList> {
  return unwrap(
    await api.get<NumberList>('/admin/numbers', {
      query: {
        count: DEFAULT_PAGE_SIZE,
        offset,
        q: q || undefined,
        clientId: clientId || undefined,
      },
    }),
  );
}

export const adminNumbersQueryOptions = (query: AdminNumbersQuery) =>
  queryOptions({
    queryKey: queryKeys.admin.numbers.list(query),
    queryFn: () => getAdminNumbers(query),
  });

/** The previous page stays on screen while the next one (or the next search) loads. */
export function useAdminNumbers(query: AdminNumbersQuery) {
  return useQuery({
    ...adminNumbersQueryOptions(query),
    placeholderData: keepPreviousData,
  });
}
