import {
  keepPreviousData,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { api, unwrap } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { ConversationList } from '../../../../shared/schemas/inbound';

/** `/clients/{id}` for the owner, `/admin/clients/{id}` for staff (ROLE_CLIENT_VIEW). */
export const clientPath = (clientId: string, asAdmin: boolean) =>
  `${asAdmin ? '/admin' : ''}/clients/${encodeURIComponent(clientId)}`;

export interface ConversationsQuery {
  offset: number;
  /** Through staff's calls (ROLE_CLIENT_VIEW). */
  asAdmin?: boolean;
  /**
   * Also the numbers the client only sent to (every recipient of a campaign); by default only
   * those that wrote to it, an inbox of replies (the API's `inbound=true`, also the cheaper).
   */
  all?: boolean;
}

/** A page of the client's conversations, the most recent first. */
export async function getConversations(
  clientId: string,
  { offset, asAdmin = false, all = false }: ConversationsQuery,
): Promise<ConversationList> {
  return unwrap(
    await api.get<ConversationList>(
      `${clientPath(clientId, asAdmin)}/conversations`,
      {
        query: {
          count: DEFAULT_PAGE_SIZE,
          offset,
          inbound: all ? undefined : 'true',
        },
      },
    ),
  );
}

export const conversationsQueryOptions = (
  clientId: string,
  query: ConversationsQuery,
) =>
  queryOptions({
    queryKey: queryKeys.conversations.list(
      clientId,
      { offset: query.offset, all: query.all ?? false },
      query.asAdmin ?? false,
    ),
    queryFn: () => getConversations(clientId, query),
  });

/** How often the Inbox asks again, so a reply that arrives shows without a reload. */
export const INBOX_REFRESH_MS = 15_000;

export function useConversations(clientId: string, query: ConversationsQuery) {
  return useQuery({
    ...conversationsQueryOptions(clientId, query),
    placeholderData: keepPreviousData,
    // Changed by what arrives (a reply, a STOP), not only by this user: asked again whenever
    // the screen is opened rather than kept for the app's 30 s.
    staleTime: 0,
    refetchInterval: INBOX_REFRESH_MS,
  });
}
