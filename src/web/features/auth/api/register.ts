import { useMutation } from '@tanstack/react-query';
import type { RegisterInput, User } from '../../../../shared/schemas/users';
import { api, unwrap } from '../../../lib/api-client';

/** The registration payload of spec §3; the confirmation never leaves the form. */
export async function registerUser(payload: RegisterInput): Promise<User> {
  return unwrap(
    await api.post<User>('/register', { body: payload, auth: false }),
  );
}

export function useRegister() {
  return useMutation({ mutationFn: registerUser });
}
