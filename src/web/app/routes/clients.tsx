import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { ClientList } from '../../features/clients/components/client-list';
import { useNewClient } from '../../features/clients/components/use-new-client';
import { useCurrentClient } from '../current-client';

export function ClientsRoute() {
  const { currentClient } = useCurrentClient();
  const newClient = useNewClient();
  return (
    <>
      <PageHeader
        title="My Clients"
        description="API clients let your systems check the balance and send messages."
        actions={
          <Button variant="primary" onClick={newClient}>
            New Client
          </Button>
        }
      />
      <ClientList currentId={currentClient?.id ?? null} />
    </>
  );
}
