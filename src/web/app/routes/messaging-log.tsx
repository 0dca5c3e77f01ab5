import { ButtonLink } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { MessageLog } from '../../features/messages/components/message-log';
import { MessagesCsvButton } from '../../features/messages/components/messages-csv-button';
import { useCurrentClient } from '../current-client';

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
        <div className="card stack-sm">
          <p>You need a client to send and see messages.</p>
          <div>
            <ButtonLink to={paths.quickstart} variant="primary">
              Go to Quick Start
            </ButtonLink>
          </div>
        </div>
      )}
    </>
  );
}
