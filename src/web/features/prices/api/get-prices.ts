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

/** The most entries one page of the list gives (CONTRACT: `count` is capped at 300). */
const LARGEST_PAGE = 300;

/** Every entry of the price list, page after page (a bulk send groups its recipients by them). */
export async function getAllPrices(): Promise<PriceList> {
  const first = unwrap(
    await api.get<PriceList>('/prices', { query: { count: LARGEST_PAGE } }),
  );
  const prices = [...first.prices];
  while (prices.length < first.total) {
    const page = unwrap(
      await api.get<PriceList>('/prices', {
        query: { count: LARGEST_PAGE, offset: prices.length },
      }),
    );
    if (page.prices.length === 0) break;
    prices.push(...page.prices);
  }
  return { ...first, count: prices.length, prices };
}

/** Kept a minute: the list changes rarely, and a send is priced by the server in any case. */
export function useAllPrices() {
  return useQuery({
    queryKey: queryKeys.prices.entries,
    queryFn: getAllPrices,
    staleTime: 60_000,
  });
}
