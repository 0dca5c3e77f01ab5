import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Price, PutPriceSchema } from '../../../../shared/schemas/prices';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type PutPriceBody = z.output<typeof PutPriceSchema>;

const pricePath = (prefix: string) =>
  `/admin/prices/${encodeURIComponent(prefix)}`;

/** Creates or replaces the entry of `prefix` (ROLE_PRICE_ADMIN). */
export async function putPrice(input: {
  prefix: string;
  price: PutPriceBody;
}): Promise<Price> {
  return unwrap(
    await api.put<Price>(pricePath(input.prefix), { body: input.price }),
  );
}

export async function deletePrice(prefix: string): Promise<void> {
  unwrap(await api.delete(pricePath(prefix)));
}

/** Saving and deleting an entry; either reloads every page of the list. */
export function usePriceMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.prices.all });
  return {
    save: useMutation({ mutationFn: putPrice, onSuccess }),
    remove: useMutation({ mutationFn: deletePrice, onSuccess }),
  };
}
