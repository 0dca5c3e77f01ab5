import { PageHeader } from '../../components/ui/page-header';
import { MessageLog } from '../../features/messages/components/message-log';
import { MessagesCsvButton } from '../../features/messages/components/messages-csv-button';
import { useCurrentClient } from '../current-client';
import { NoClientCard } from './no-client-card';

/** /messaging/log: the current client's messages with their delivery states. */
export function MessagingLogRoute() {
  const { currentClient } = useCurrentClient();
  return (
    <>
      <PageHeader
        title="Message Log"
        description={
          currentClient
            ? `Messages sent from the client ${currentClient.name}, newest first.`
            : undefined
        }
        actions={
          currentClient ? (
            <MessagesCsvButton
              key={currentClient.id}
              clientId={currentClient.id}
            />
          ) : undefined
        }
      />
      {currentClient ? (
        <MessageLog key={currentClient.id} clientId={currentClient.id} />
      ) : (
        <NoClientCard text="You need a client to send and see messages." />
      )}
    </>
  );
}
