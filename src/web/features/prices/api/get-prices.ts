import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import type { PriceList } from '../../../../shared/schemas/prices';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface PricesQuery {
  offset: number;
  /** A prefix the entries start with, or part of their name (case-insensitive). */
  q: string;
}

/** A page of the price list by prefix (CONTRACT "Destinations"), with the default price. */
export async function getPrices({
  offset,
  q,
}: PricesQuery): Promise<PriceList> {
  return unwrap(
    await api.get<PriceList>('/prices', {
      query: { count: DEFAULT_PAGE_SIZE, offset, q: q || undefined },
    }),
  );
}

export const pricesQueryOptions = (query: PricesQuery) =>
  queryOptions({
    queryKey: queryKeys.prices.list(query),
    queryFn: () => getPrices(query),
  });

/** The previous page stays on screen while the next one (or a new search) loads. */
export function usePrices(query: PricesQuery) {
  return useQuery({
    ...pricesQueryOptions(query),
    placeholderData: keepPreviousData,
  });
}
