import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { offsetParam } from '../../components/ui/pager';
import {
  ConversationList,
  inboxHref,
} from '../../features/conversations/components/conversation-list';
import { useCurrentClient } from '../current-client';
import { NoClientCard } from './no-client-card';

/** /messaging/inbox: the current client's conversations, the most recent first (issue 32). */
export function MessagingInboxRoute() {
  const { currentClient } = useCurrentClient();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const all = search.get('all') === 'true';
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
        <div className="stack-sm">
          {/* In the URL, so a reload or a shared link keeps it; a new choice starts at page 1. */}
          <label className="inbox-filter">
            <input
              type="checkbox"
              checked={all}
              onChange={(event) =>
                void navigate(inboxHref(event.target.checked), {
                  replace: true,
                })
              }
            />
            Also show numbers you only sent to
          </label>
          <ConversationList
            key={currentClient.id}
            clientId={currentClient.id}
            offset={offsetParam(search.get('offset'))}
            all={all}
          />
        </div>
      ) : (
        <NoClientCard text="You need a client to receive messages." />
      )}
    </>
  );
}
