import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import {
  ADMIN_LARGE_PAGE_SIZE,
  MAX_CLIENTS_MESSAGE,
  MAX_CLIENTS_PER_USER,
} from '../../../../shared/limits';
import { Button } from '../../../components/ui/button';
import { usePanel } from '../../../components/ui/side-panel';
import { DataTable } from '../../../components/ui/data-table';
import { useToast } from '../../../components/ui/toaster';
import { adminClientsQueryOptions } from '../api/get-admin-clients';
import { clientColumns } from './admin-client-table';
import { useCanCall } from '../../../lib/permissions';

/**
 * A user's clients (300 at a time, spec §9) and New Client, which opens `newClientForm` (the
 * screen supplies the clients feature's form) unless the user already has 30. New Client and
 * the links to the clients are offered to the roles that may create and view clients.
 */
export function UserClients({
  userId,
  newClientForm,
}: {
  userId: string;
  newClientForm: ReactNode;
}) {
  // Not the paged hook: its previous-page placeholder would show another user's clients here.
  const clients = useQuery(
    adminClientsQueryOptions({ userId, count: ADMIN_LARGE_PAGE_SIZE }),
  );
  const panel = usePanel();
  const toast = useToast();
  const canCreate = useCanCall({ family: 'CLIENT', verb: 'CREATE' });
  const canView = useCanCall({ family: 'CLIENT', verb: 'VIEW' });

  function newClient() {
    if ((clients.data?.clients.length ?? 0) >= MAX_CLIENTS_PER_USER) {
      toast.show(MAX_CLIENTS_MESSAGE, { tone: 'danger', role: 'alert' });
      return;
    }
    panel.showPanel(newClientForm, { title: 'New Client' });
  }

  return (
    <section className="stack-sm" aria-labelledby="user-clients-title">
      <div className="section-header">
        <h2 id="user-clients-title" className="section-title">
          Clients
        </h2>
        {canCreate ? (
          <Button
            variant="primary"
            size="sm"
            onClick={newClient}
            disabled={clients.isPending}
          >
            New Client
          </Button>
        ) : null}
      </div>
      <DataTable
        query={clients}
        rows={(data) => data.clients}
        rowKey={(client) => client.id}
        rowClassName={() => (canView ? 'row-link' : undefined)}
        columns={clientColumns(canView)}
        caption={() => "The user's clients"}
        loadingLabel="Loading the user's clients"
        skeletonRows={2}
        empty="This user has no clients."
      />
    </section>
  );
}
