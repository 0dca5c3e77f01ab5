import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { offsetParam } from '../../components/ui/pager';
import { Optouts } from '../../features/optouts/components/optouts';
import { OptoutsCsvButton } from '../../features/optouts/components/optouts-csv-button';
import { useCurrentClient } from '../current-client';
import { NoClientCard } from './no-client-card';

/** /messaging/optouts: the numbers the current client's messages are refused to (issue 32). */
export function MessagingOptoutsRoute() {
  const { currentClient } = useCurrentClient();
  const [search] = useSearchParams();
  return (
    <>
      <PageHeader
        title="Opt-outs"
        description={
          currentClient
            ? `Numbers that opted out of the client ${currentClient.name}'s messages: every send to them is refused, and nothing is charged.`
            : undefined
        }
        actions={
          currentClient ? (
            <OptoutsCsvButton
              key={currentClient.id}
              clientId={currentClient.id}
            />
          ) : undefined
        }
      />
      {currentClient ? (
        <Optouts
          key={currentClient.id}
          clientId={currentClient.id}
          offset={offsetParam(search.get('offset'))}
        />
      ) : (
        <NoClientCard text="You need a client to keep opt-outs." />
      )}
    </>
  );
}
