import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserRole } from '../../../../shared/schemas/roles';
import { api, unwrap } from '../../../lib/api-client';
import { sortRoles, userRolesQueryOptions } from './get-user-roles';

async function changeRole(
  userId: string,
  change: 'add' | 'remove',
  role: string,
): Promise<UserRole[]> {
  const path = `/admin/users/${encodeURIComponent(userId)}/roles/${change}`;
  const body = { role };
  const list = unwrap(
    change === 'add'
      ? await api.post<{ roles: UserRole[] }>(path, { body })
      : await api.put<{ roles: UserRole[] }>(path, { body }),
  );
  return sortRoles(list.roles);
}

/** Adding and removing a user's roles; both answer the updated list, which replaces ours. */
export function useUserRoleChanges(userId: string) {
  const queryClient = useQueryClient();
  const store = (roles: UserRole[]) =>
    queryClient.setQueryData(userRolesQueryOptions(userId).queryKey, roles);
  return {
    add: useMutation({
      mutationFn: (role: string) => changeRole(userId, 'add', role),
      onSuccess: store,
    }),
    remove: useMutation({
      mutationFn: (role: string) => changeRole(userId, 'remove', role),
      onSuccess: store,
    }),
  };
}
