import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { saveFile } from '../../../lib/save-file';

const CSV_PATH = '/admin/prices.csv';

/** The whole price list as CSV text (header `prefix,name,pricePerSegment,blocked`). */
export async function getPriceListCsv(): Promise<string> {
  return unwrap(await api.get<string>(CSV_PATH, { responseType: 'text' }));
}

/** Replaces the whole list with the CSV, in one transaction: `{count}` entries now. */
export async function putPriceListCsv(csv: string): Promise<{ count: number }> {
  return unwrap(
    await api.put<{ count: number }>(CSV_PATH, {
      body: csv,
      contentType: 'text/csv',
    }),
  );
}

/** Fetches the list's CSV with the user's credentials and saves it as prices.csv. */
export function useDownloadPriceListCsv() {
  return useMutation({
    mutationFn: async () => {
      const csv = await getPriceListCsv();
      saveFile(
        new Blob([csv], { type: 'text/csv;charset=utf-8' }),
        'prices.csv',
      );
    },
  });
}

export function useImportPriceListCsv() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putPriceListCsv,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.prices.all }),
  });
}
