import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import type { UserList } from '../../../../shared/schemas/users';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A page of every user: 30 at `offset` (spec §7). */
export async function getAdminUsers(offset: number): Promise<UserList> {
  return unwrap(
    await api.get<UserList>('/admin/users', {
      query: { count: DEFAULT_PAGE_SIZE, offset },
    }),
  );
}

export const adminUsersQueryOptions = (offset: number) =>
  queryOptions({
    queryKey: queryKeys.admin.users.list(offset),
    queryFn: () => getAdminUsers(offset),
  });

/** The previous page stays on screen while the next one loads. */
export function useAdminUsers(offset: number) {
  return useQuery({
    ...adminUsersQueryOptions(offset),
    placeholderData: keepPreviousData,
  });
}
