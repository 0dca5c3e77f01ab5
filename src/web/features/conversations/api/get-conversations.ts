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

/** A page of the client's conversations, the most recent first. */
export async function getConversations(
  clientId: string,
  offset: number,
  asAdmin = false,
): Promise<ConversationList> {
  return unwrap(
    await api.get<ConversationList>(
      `${clientPath(clientId, asAdmin)}/conversations`,
      { query: { count: DEFAULT_PAGE_SIZE, offset } },
    ),
  );
}

export const conversationsQueryOptions = (
  clientId: string,
  offset: number,
  asAdmin = false,
) =>
  queryOptions({
    queryKey: queryKeys.conversations.list(clientId, offset, asAdmin),
    queryFn: () => getConversations(clientId, offset, asAdmin),
  });

/** How often the Inbox asks again, so a reply that arrives shows without a reload. */
export const INBOX_REFRESH_MS = 15_000;

export function useConversations(
  clientId: string,
  offset: number,
  asAdmin = false,
) {
  return useQuery({
    ...conversationsQueryOptions(clientId, offset, asAdmin),
    placeholderData: keepPreviousData,
    // Changed by what arrives (a reply, a STOP), not only by this user: asked again whenever
    // the screen is opened rather than kept for the app's 30 s.
    staleTime: 0,
    refetchInterval: INBOX_REFRESH_MS,
  });
}
