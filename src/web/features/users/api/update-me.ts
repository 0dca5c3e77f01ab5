import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateUserInput, User } from '../../../../shared/schemas/users';
import { api, unwrap } from '../../../lib/api-client';
import { saveEmail } from '../../../lib/credentials';
import { meQueryOptions } from './get-me';

export async function updateMe(input: UpdateUserInput): Promise<User> {
  return unwrap(await api.put<User>('/users/me', { body: input }));
}

export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: (user) => {
      // The e-mail is the login name: keep the stored credentials in step with it.
      saveEmail(user.email);
      return queryClient.invalidateQueries({
        queryKey: meQueryOptions().queryKey,
      });
    },
  });
}
