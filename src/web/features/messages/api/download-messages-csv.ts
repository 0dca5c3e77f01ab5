import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { saveFile } from '../../../lib/save-file';
import { filtersQuery, type MessageFilters } from '../message-filters';
import { messagesPath, type MessageSource } from '../message-log-model';

export interface MessagesCsvQuery extends MessageSource {
  filters?: MessageFilters;
}

/**
 * The log as CSV with the same filters (`GET …/messages.csv`). It goes through the API client,
 * which carries the Basic credentials in a header: a plain link would need them in the URL.
 */
export async function downloadMessagesCsv({
  filters = {},
  ...source
}: MessagesCsvQuery): Promise<Blob> {
  const text = unwrap(
    await api.get<string>(`${messagesPath(source)}.csv`, {
      query: filtersQuery(filters),
      responseType: 'text',
    }),
  );
  return new Blob([text], { type: 'text/csv;charset=utf-8' });
}

/** Downloads the CSV and saves it as `messages.csv`. */
export function useDownloadMessagesCsv() {
  return useMutation({
    mutationFn: async (query: MessagesCsvQuery) => {
      saveFile(await downloadMessagesCsv(query), 'messages.csv');
    },
  });
}
