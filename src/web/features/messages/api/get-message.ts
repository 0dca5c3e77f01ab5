import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys';
import { api, unwrap } from '../../../lib/api-client';
import {
  isLive,
  LIVE_REFRESH_MS,
  messagesPath,
  type MessageDetail,
  type MessageSource,
} from '../message-log-model';

export interface MessageQuery extends MessageSource {
  messageId: string;
}

/** One message with its delivery attempts (`GET …/messages/{messageId}`, or the admin variant). */
export async function getMessage({
  messageId,
  ...source
}: MessageQuery): Promise<MessageDetail> {
  return unwrap(
    await api.get<MessageDetail>(
      `${messagesPath(source)}/${encodeURIComponent(messageId)}`,
    ),
  );
}

export const messageQueryOptions = (query: MessageQuery) =>
  queryOptions({
    queryKey: queryKeys.messages.detail(
      query.clientId,
      query.messageId,
      Boolean(query.asAdmin),
    ),
    queryFn: () => getMessage(query),
  });

/** The message of the detail panel, refreshed while it or its status callbacks may change. */
export function useMessage(query: MessageQuery) {
  return useQuery({
    ...messageQueryOptions(query),
    staleTime: 0,
    refetchInterval: (current) =>
      current.state.data && isLive(current.state.data)
        ? LIVE_REFRESH_MS
        : false,
  });
}
