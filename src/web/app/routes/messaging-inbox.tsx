import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { offsetParam } from '../../components/ui/pager';
import { ConversationList } from '../../features/conversations/components/conversation-list';
import { useCurrentClient } from '../current-client';
import { NoClientCard } from './no-client-card';

/** /messaging/inbox: the current client's conversations, the most recent first (issue 32). */
export function MessagingInboxRoute() {
  const { currentClient } = useCurrentClient();
  const [search] = useSearchParams();
  return (
    <>
      <PageHeader
        title="Inbox"
        description={
          currentClient
            ? `Messages to the numbers of the client ${currentClient.name}, with your replies: open a conversation to read it and reply.`
            : undefined
        }
      />
      {currentClient ? (
        <ConversationList
          key={currentClient.id}
          clientId={currentClient.id}
          offset={offsetParam(search.get('offset'))}
        />
      ) : (
        <NoClientCard text="You need a client to receive messages." />
      )}
    </>
  );
}
