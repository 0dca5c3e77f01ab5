import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyUser } from '../../../../shared/schemas/users';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getMe(): Promise<MyUser> {
  return unwrap(await api.get<MyUser>('/users/me'));
}

export const meQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.me, queryFn: getMe });

export function useMe() {
  return useQuery(meQueryOptions());
}
