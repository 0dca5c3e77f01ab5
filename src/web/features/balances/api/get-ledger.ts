import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import type { LedgerKind, Ledger } from '../../../../shared/schemas/balances';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Rows of a history tab per page. */
export const HISTORY_PAGE_SIZE = 20;

export interface LedgerQuery {
  clientId: string;
  /** The kind a tab shows: credits (FREE_CREDIT) or debits (SMS). */
  kind: LedgerKind;
  offset: number;
}

/** A page of the default balance's ledger, newest first (CONTRACT.md "Accountability"). */
export async function getLedger({
  clientId,
  kind,
  offset,
}: LedgerQuery): Promise<Ledger> {
  return unwrap(
    await api.get<Ledger>(
      `/clients/${encodeURIComponent(clientId)}/balances/default/ledger`,
      {
        query: { count: HISTORY_PAGE_SIZE, offset, kind },
      },
    ),
  );
}

export const ledgerQueryOptions = (query: LedgerQuery) =>
  queryOptions({
    queryKey: queryKeys.balances.ledger(query.clientId, query),
    queryFn: () => getLedger(query),
  });

/** The previous page stays on screen while the next one loads. */
export function useLedger(query: LedgerQuery) {
  return useQuery({
    ...ledgerQueryOptions(query),
    placeholderData: keepPreviousData,
  });
}
