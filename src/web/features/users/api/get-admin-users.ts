import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import type { UserList } from '../../../../shared/schemas/users';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A page of every user, newest first: 30 at `offset` (spec §7), matching `q` when given. */
export async function getAdminUsers(offset: number, q = ''): Promise<UserList> {
  return unwrap(
    await api.get<UserList>('/admin/users', {
      query: { count: DEFAULT_PAGE_SIZE, offset, q: q || undefined },
    }),
  );
}

export const adminUsersQueryOptions = (offset: number, q = '') =>
  queryOptions({
    queryKey: queryKeys.admin.users.list(offset, q),
    queryFn: () => getAdminUsers(offset, q),
  });

/** The previous page stays on screen while the next one loads. */
export function useAdminUsers(offset: number, q = '') {
  return useQuery({
    ...adminUsersQueryOptions(offset, q),
    placeholderData: keepPreviousData,
  });
}
