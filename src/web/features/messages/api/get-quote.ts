import { queryOptions, useQuery } from '@tanstack/react-query';
import { isValidRecipient } from '../../../../shared/recipient';
import type { Quote } from '../../../../shared/schemas/prices';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface QuoteQuery {
  /** Cleaned as the send cleans it (digits only). */
  recipient: string;
  body: string;
}

/** What sending `body` to `recipient` would cost this client, and whether it may (CONTRACT). */
export async function getQuote(
  clientId: string,
  query: QuoteQuery,
): Promise<Quote> {
  return unwrap(
    await api.get<Quote>(`/clients/${encodeURIComponent(clientId)}/quote`, {
      query: { recipient: query.recipient, body: query.body },
    }),
  );
}

export const quoteQueryOptions = (clientId: string, query: QuoteQuery) =>
  queryOptions({
    queryKey: queryKeys.quote(clientId, query),
    queryFn: () => getQuote(clientId, query),
  });

/** True when a quote can be asked: a whole recipient and a body (else the server says 400). */
export function canQuote(query: QuoteQuery): boolean {
  return isValidRecipient(query.recipient) && query.body !== '';
}

export function useQuote(clientId: string, query: QuoteQuery) {
  return useQuery({
    ...quoteQueryOptions(clientId, query),
    enabled: canQuote(query),
  });
}
