import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyUser } from '../../../../shared/schemas/users';
import { api, unwrap } from '../../../lib/api-client';

export async function getMe(): Promise<MyUser> {
  return unwrap(await api.get<MyUser>('/users/me'));
}

export const meQueryOptions = () =>
  queryOptions({ queryKey: ['users', 'me'], queryFn: getMe });

export function useMe() {
  return useQuery(meQueryOptions());
}
