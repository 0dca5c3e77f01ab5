import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Branding } from '../../../../shared/schemas/branding';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Branding and the SMS price (GET /api/config), read at run time so a change needs no rebuild. */
export async function getBranding(): Promise<Branding> {
  return unwrap(await api.get<Branding>('/config', { auth: false }));
}

export const brandingQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.branding,
    queryFn: getBranding,
    staleTime: Infinity,
    meta: { public: true },
  });

export function useBranding() {
  return useQuery(brandingQueryOptions());
}
