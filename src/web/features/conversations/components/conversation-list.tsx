import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { ButtonLink } from '../../../components/ui/button';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { SectionCard } from '../../../components/ui/section-card';
import { usePanel } from '../../../components/ui/side-panel';
import { paths } from '../../../config/paths';
import { formatDateTime, formatPhoneNumber } from '../../../lib/format';
import { useConversations } from '../api/get-conversations';
import type { Conversation } from '../../../../shared/schemas/inbound';
import { ConversationThread } from './conversation-thread';
import { OptedOutBadge } from './opted-out-badge';
import './conversations.css';

/** `/messaging/inbox?all=true&offset=n`, with only what is set. */
export function inboxHref(all: boolean, offset = 0): string {
  const params = new URLSearchParams();
  if (all) params.set('all', 'true');
  if (offset > 0) params.set('offset', String(offset));
  const search = params.toString();
  return search ? `${paths.inbox}?${search}` : paths.inbox;
}

/**
 * The client's conversations, the most recent first: the remote number (opening the thread,
 * the whole row its target), whether it opted out, the last message and who wrote it, when,
 * and how many went each way. Only the numbers that wrote, unless `all`. Asked again every few
 * seconds, so a new reply shows up.
 */
export function ConversationList({
  clientId,
  offset,
  all,
}: {
  clientId: string;
  offset: number;
  /** Also the numbers the client only sent to; else only those that wrote. */
  all: boolean;
}) {
  const conversations = useConversations(clientId, { offset, all });
  return (
    <DataTable
      query={conversations}
      rows={(data) => data.conversations}
      rowKey={(conversation) => conversation.number}
      rowClassName={() => 'row-link'}
      className="conversation-table"
      columns={conversationColumns((conversation) => (
        <Link
          className="row-link-target tabular"
          to={paths.conversation(conversation.number)}
        >
          {formatPhoneNumber(conversation.number)}
        </Link>
      ))}
      caption={(rows, data) =>
        `Conversations ${offset + 1} to ${offset + rows.length} of ${data.total}`
      }
      loadingLabel="Loading conversations"
      empty={
        offset > 0
          ? 'No conversations on this page.'
          : all
            ? 'No conversations yet. Messages sent to your numbers, and your messages, appear here.'
            : 'No replies yet. Messages sent to your numbers appear here, with your answers.'
      }
      emptyAction={
        offset > 0 ? (
          <ButtonLink to={inboxHref(all)}>First page</ButtonLink>
        ) : null
      }
      pager={{
        label: 'Conversation pages',
        offset,
        pageSize: DEFAULT_PAGE_SIZE,
        total: (data) => data.total,
        hrefFor: (to) => inboxHref(all, to),
      }}
    />
  );
}

/** The columns of a list of conversations; `open` is the number, as what opens the thread. */
function conversationColumns(
  open: (conversation: Conversation) => ReactNode,
): Column<Conversation>[] {
  return [
    {
      header: 'Number',
      label: null,
      className: 'nowrap',
      cell: (conversation) => (
        <span className="conversation-number">
          {open(conversation)}
          {conversation.optedOut ? <OptedOutBadge /> : null}
        </span>
      ),
    },
    {
      header: 'Last message',
      label: null,
      className: 'conversation-last',
      cell: (conversation) => <LastMessage conversation={conversation} />,
    },
    {
      header: 'When',
      className: 'nowrap',
      cell: (conversation) => formatDateTime(conversation.lastMessageAt),
    },
    {
      header: 'Messages',
      numeric: true,
      cell: (conversation) =>
        `${conversation.inboundCount} received · ${conversation.outboundCount} sent`,
    },
  ];
}

/**
 * A client's conversations for staff (ROLE_CLIENT_VIEW, the admin calls), on the admin client
 * page: the same list, read only; a number opens its thread in the side panel. Paged in place,
 * as the page's URL `offset` is the messages'.
 */
export function AdminClientConversations({ clientId }: { clientId: string }) {
  const [offset, setOffset] = useState(0);
  // Staff see every conversation: the numbers that wrote and those only sent to.
  const conversations = useConversations(clientId, {
    offset,
    asAdmin: true,
    all: true,
  });
  const panel = usePanel();
  return (
    <SectionCard title="Conversations" className="stack-sm">
      <DataTable
        card={false}
        query={conversations}
        rows={(data) => data.conversations}
        rowKey={(conversation) => conversation.number}
        className="conversation-table"
        columns={conversationColumns((conversation) => (
          <button
            type="button"
            className="link-button tabular"
            onClick={() =>
              panel.showPanel(
                <ConversationThread
                  clientId={clientId}
                  number={conversation.number}
                  asAdmin
                  reply={() => null}
                />,
                {
                  title: `Conversation with ${formatPhoneNumber(conversation.number)}`,
                },
              )
            }
          >
            {formatPhoneNumber(conversation.number)}
          </button>
        ))}
        caption={(rows, data) =>
          `Conversations of the client, ${offset + 1} to ${offset + rows.length} of ${data.total}`
        }
        loadingLabel="Loading conversations"
        skeletonRows={3}
        errorPrefix="The conversations could not be loaded. "
        empty="This client has no conversations."
        pager={{
          label: 'Conversation pages',
          offset,
          pageSize: DEFAULT_PAGE_SIZE,
          total: (data) => data.total,
          onPage: setOffset,
        }}
      />
    </SectionCard>
  );
}

/** The last message, one line, said whose it was: the direction in words, not by colour alone. */
function LastMessage({ conversation }: { conversation: Conversation }) {
  return (
    <span className="last-message">
      <span className="direction-label">
        {conversation.lastDirection === 'inbound' ? 'Received:' : 'You:'}
      </span>{' '}
      <span className="last-body">{conversation.lastBody}</span>
    </span>
  );
}
