import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { saveFile } from '../../../lib/save-file';

/** Every opt-out of the client as CSV text. */
export async function getOptoutsCsv(clientId: string): Promise<string> {
  return unwrap(
    await api.get<string>(
      `/clients/${encodeURIComponent(clientId)}/optouts.csv`,
      { responseType: 'text' },
    ),
  );
}

/** Fetches the CSV with the user's credentials and saves it as optouts.csv. */
export function useDownloadOptoutsCsv() {
  return useMutation({
    mutationFn: async (clientId: string) => {
      const csv = await getOptoutsCsv(clientId);
      saveFile(
        new Blob([csv], { type: 'text/csv;charset=utf-8' }),
        'optouts.csv',
      );
    },
  });
}
