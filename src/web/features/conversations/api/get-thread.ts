import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { clientPath, INBOX_REFRESH_MS } from './get-conversations';
import type { ConversationThread } from '../../../../shared/schemas/inbound';

/** How many of the latest messages a thread shows at first, and how many more each time. */
export const THREAD_PAGE_SIZE = 50;

function threadPage(
  clientId: string,
  number: string,
  offset: number,
  count: number,
  asAdmin: boolean,
): Promise<ConversationThread> {
  return api
    .get<ConversationThread>(
      `${clientPath(clientId, asAdmin)}/conversations/${encodeURIComponent(number)}`,
      { query: { count, offset } },
    )
    .then(unwrap);
}

/**
 * The latest `shown` messages of the conversation with `number`, oldest first, as a chat reads.
 * The API pages from the oldest: the first page tells the total, and when the thread is longer
 * the page that ends with the newest message is asked for.
 */
export async function getLatestThread(
  clientId: string,
  number: string,
  shown: number,
  asAdmin = false,
): Promise<ConversationThread> {
  const first = await threadPage(clientId, number, 0, shown, asAdmin);
  if (first.total <= shown) return first;
  return threadPage(clientId, number, first.total - shown, shown, asAdmin);
}

export const threadQueryOptions = (
  clientId: string,
  number: string,
  shown: number,
  asAdmin = false,
) =>
  queryOptions({
    queryKey: queryKeys.conversations.thread(clientId, number, shown, asAdmin),
    queryFn: () => getLatestThread(clientId, number, shown, asAdmin),
  });

/** The thread stays on screen while more of it (or a newer state) is asked. */
export function useThread(
  clientId: string,
  number: string,
  shown: number,
  asAdmin = false,
) {
  return useQuery({
    ...threadQueryOptions(clientId, number, shown, asAdmin),
    placeholderData: keepPreviousData,
    // Changed by what arrives (a reply, a STOP), not only by this user: asked again whenever
    // the screen is opened rather than kept for the app's 30 s.
    staleTime: 0,
    refetchInterval: INBOX_REFRESH_MS,
  });
}
