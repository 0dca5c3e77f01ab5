import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { ButtonLink } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/data-table';
import { paths } from '../../../config/paths';
import { formatDateTime, formatPhoneNumber } from '../../../lib/format';
import { useConversations } from '../api/get-conversations';
import type { Conversation } from '../../../../shared/schemas/inbound';
import { OptedOutBadge } from './opted-out-badge';
import './conversations.css';

/** `/messaging/inbox?offset=n`, or the first page. */
const inboxHref = (offset: number) =>
  offset > 0 ? `${paths.inbox}?offset=${offset}` : paths.inbox;

/**
 * The client's conversations, the most recent first: the remote number (opening the thread,
 * the whole row its target), whether it opted out, the last message and who wrote it, when,
 * and how many went each way. Asked again every few seconds, so a new reply shows up.
 */
export function ConversationList({
  clientId,
  offset,
}: {
  clientId: string;
  offset: number;
}) {
  const conversations = useConversations(clientId, offset);
  return (
    <DataTable
      query={conversations}
      rows={(data) => data.conversations}
      rowKey={(conversation) => conversation.number}
      rowClassName={() => 'row-link'}
      className="conversation-table"
      columns={[
        {
          header: 'Number',
          label: null,
          className: 'nowrap',
          cell: (conversation) => (
            <span className="conversation-number">
              <Link
                className="row-link-target tabular"
                to={paths.conversation(conversation.number)}
              >
                {formatPhoneNumber(conversation.number)}
              </Link>
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
      ]}
      caption={(rows, data) =>
        `Conversations ${offset + 1} to ${offset + rows.length} of ${data.total}`
      }
      loadingLabel="Loading conversations"
      empty={
        offset > 0
          ? 'No conversations on this page.'
          : 'No conversations yet. Messages sent to your numbers, and your replies, appear here.'
      }
      emptyAction={
        offset > 0 ? (
          <ButtonLink to={inboxHref(0)}>First page</ButtonLink>
        ) : null
      }
      pager={{
        label: 'Conversation pages',
        offset,
        pageSize: DEFAULT_PAGE_SIZE,
        total: (data) => data.total,
        hrefFor: inboxHref,
      }}
    />
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
