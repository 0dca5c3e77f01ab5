import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '../../../../shared/schemas/users';
import { api, unwrap } from '../../../lib/api-client';

export async function changePassword(
  input: ChangePasswordInput,
): Promise<void> {
  unwrap(await api.put('/users/me/password', { body: input }));
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
