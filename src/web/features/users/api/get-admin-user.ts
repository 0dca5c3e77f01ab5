import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '../../../../shared/schemas/users';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getAdminUser(userId: string): Promise<User> {
  return unwrap(
    await api.get<User>(`/admin/users/${encodeURIComponent(userId)}`),
  );
}

export const adminUserQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.admin.users.detail(userId),
    queryFn: () => getAdminUser(userId),
  });

export function useAdminUser(userId: string) {
  return useQuery(adminUserQueryOptions(userId));
}
