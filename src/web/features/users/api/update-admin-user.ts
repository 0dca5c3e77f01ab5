import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateUserInput, User } from '../../../../shared/schemas/users';
import { api, unwrap } from '../../../lib/api-client';
import { adminUserQueryOptions } from './get-admin-user';
import { queryKeys } from '../../../lib/query-keys';

export async function updateAdminUser({
  userId,
  ...profile
}: UpdateUserInput & { userId: string }): Promise<User> {
  return unwrap(
    await api.put<User>(`/admin/users/${encodeURIComponent(userId)}`, {
      body: profile,
    }),
  );
}

export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAdminUser,
    onSuccess: (user) => {
      queryClient.setQueryData(adminUserQueryOptions(user.id).queryKey, user);
      return queryClient.invalidateQueries({
        queryKey: queryKeys.admin.users.lists,
      });
    },
  });
}
