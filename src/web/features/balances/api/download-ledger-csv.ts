import { useMutation } from '@tanstack/react-query';
import type { LedgerKind } from '../../../../shared/schemas/balances';
import { api, unwrap } from '../../../lib/api-client';
import { saveFile } from '../../../lib/save-file';

/** Every ledger row of one kind as CSV text (`…/ledger.csv?kind=…`), for a spreadsheet. */
export async function getLedgerCsv(
  clientId: string,
  kind: LedgerKind,
): Promise<string> {
  return unwrap(
    await api.get<string>(
      `/clients/${encodeURIComponent(clientId)}/balances/default/ledger.csv`,
      { query: { kind }, responseType: 'text' },
    ),
  );
}

/** Fetches the CSV with the user's credentials and saves it as `{fileName}`. */
export function useDownloadLedgerCsv() {
  return useMutation({
    mutationFn: async (input: {
      clientId: string;
      kind: LedgerKind;
      fileName: string;
    }) => {
      const csv = await getLedgerCsv(input.clientId, input.kind);
      saveFile(
        new Blob([csv], { type: 'text/csv;charset=utf-8' }),
        input.fileName,
      );
    },
  });
}
