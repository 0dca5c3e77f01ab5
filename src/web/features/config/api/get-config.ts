import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../../../shared/schemas/config';
import { api, unwrap } from '../../../lib/api-client';

/** Branding and the SMS price, read at run time so a change needs no rebuild. */
export async function getConfig(): Promise<PublicConfig> {
  return unwrap(await api.get<PublicConfig>('/config', { auth: false }));
}

export const configQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: getConfig,
    staleTime: Infinity,
    meta: { public: true },
  });

export function useConfig() {
  return useQuery(configQueryOptions());
}
