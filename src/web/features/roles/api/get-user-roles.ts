import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_LARGE_PAGE_SIZE } from '../../../../shared/limits';
import type { UserRole } from '../../../../shared/schemas/roles';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Code-point order, as the server sorts them (spec §2: sorted alphabetically). */
export function sortRoles(roles: readonly UserRole[]): UserRole[] {
  return [...roles].sort((a, b) =>
    a.role < b.role ? -1 : a.role > b.role ? 1 : 0,
  );
}

/** A user's roles, asked 300 at a time (spec §7, §9), sorted alphabetically. */
export async function getUserRoles(userId: string): Promise<UserRole[]> {
  const list = unwrap(
    await api.get<{ roles: UserRole[] }>(
      `/admin/users/${encodeURIComponent(userId)}/roles`,
      { query: { count: ADMIN_LARGE_PAGE_SIZE, offset: 0 } },
    ),
  );
  return sortRoles(list.roles);
}

export const userRolesQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.admin.users.roles(userId),
    queryFn: () => getUserRoles(userId),
  });

export function useUserRoles(userId: string) {
  return useQuery(userRolesQueryOptions(userId));
}
