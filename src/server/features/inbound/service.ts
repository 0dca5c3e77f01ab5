import type {
  ConversationList,
  ConversationThread,
  InboundMessage,
  InboundMessageList,
} from '../../../shared/schemas/inbound.ts';
import {
  endOf,
  startOf,
  type DateOrTime,
} from '../../../shared/schemas/periods.ts';
import { checkClient } from '../../auth/client-access.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import * as repo from './repo.ts';

/**
 * Inbound messages and conversations of a client: for its owner (ownerId, or an API client
 * acting for its owner) or, for staff (ownerId null), any client's. An unknown client, or
 * another user's, answers 404.
 */

type Paging = { count: number; offset: number };

export async function listInbound(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
  query: Paging & {
    from?: string | undefined;
    to?: string | undefined;
    since?: DateOrTime | undefined;
    until?: DateOrTime | undefined;
  },
): Promise<InboundMessageList> {
  await checkClient(deps, clientId, ownerId);
  const { count, offset, from, to, since, until } = query;
  const page = await repo.listInbound(
    deps.db,
    clientId,
    {
      from,
      to,
      since: since && startOf(since),
      before: until && endOf(until),
    },
    { count, offset },
  );
  return { total: page.total, count, offset, messages: page.items };
}

export async function getInbound(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
  id: string,
): Promise<InboundMessage> {
  await checkClient(deps, clientId, ownerId);
  const found = await repo.findInbound(deps.db, clientId, id);
  if (!found) throw notFound('Inbound message');
  return found;
}

export async function listConversations(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
  {
    count,
    offset,
    inbound,
  }: Paging & { inbound?: 'true' | 'false' | undefined },
): Promise<ConversationList> {
  await checkClient(deps, clientId, ownerId);
  const page = await repo.listConversations(
    deps.db,
    clientId,
    { count, offset },
    inbound === 'true',
  );
  return { total: page.total, count, offset, conversations: page.items };
}

/**
 * One conversation, oldest first. A number the client never exchanged a message with is an
 * empty conversation (it may still be opted out), not a 404.
 */
export async function getConversation(
  deps: Deps,
  clientId: string,
  ownerId: string | null,
  number: string,
  { count, offset }: Paging,
): Promise<ConversationThread> {
  await checkClient(deps, clientId, ownerId);
  const [page, optedOut] = await Promise.all([
    repo.conversationItems(deps.db, clientId, number, { count, offset }),
    repo.isOptedOut(deps.db, clientId, number),
  ]);
  return {
    number,
    optedOut,
    total: page.total,
    count,
    offset,
    items: page.items,
  };
}
