import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { queryKeys } from '../../../lib/query-keys';
import { api, unwrap } from '../../../lib/api-client';
import { filtersQuery, type MessageFilters } from '../message-filters';
import {
  isInFlight,
  LIVE_REFRESH_MS,
  messagesPath,
  type MessageList,
  type MessageSource,
} from '../message-log-model';

export interface MessagesQuery extends MessageSource {
  filters?: MessageFilters;
  offset?: number;
  /** 30 by default (CONTRACT.md). */
  count?: number;
}

/** A page of a client's messages, newest first (`GET …/messages`, or the admin variant). */
export async function getMessages({
  filters = {},
  offset = 0,
  count = DEFAULT_PAGE_SIZE,
  ...source
}: MessagesQuery): Promise<MessageList> {
  return unwrap(
    await api.get<MessageList>(messagesPath(source), {
      query: { count, offset, ...filtersQuery(filters) },
    }),
  );
}

export const messagesQueryOptions = (query: MessagesQuery) =>
  queryOptions({
    queryKey: queryKeys.messages.list(query.clientId, Boolean(query.asAdmin), {
      filters: query.filters ?? {},
      offset: query.offset ?? 0,
      count: query.count ?? DEFAULT_PAGE_SIZE,
    }),
    queryFn: () => getMessages(query),
  });

/**
 * A page of the log. It refreshes every 2 s while a listed message is still in flight
 * (ACCEPTED or SUBMITTED) and stops once all are final; the previous page stays on screen
 * while another page or filter loads. Never fresh for long: coming back to the log (after a
 * send, say) loads it again.
 */
export function useMessages(query: MessagesQuery) {
  return useQuery({
    ...messagesQueryOptions(query),
    staleTime: 0,
    placeholderData: keepPreviousData,
    refetchInterval: (current) =>
      current.state.data?.messages.some(isInFlight) ? LIVE_REFRESH_MS : false,
  });
}
