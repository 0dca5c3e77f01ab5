import { useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { ButtonLink } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { RoleGate } from '../../components/ui/role-gate';
import { Skeleton } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useAdminClient } from '../../features/clients/api/get-admin-client';
import { AdminBalanceCard } from '../../features/clients/components/admin-balance-card';
import { AdminClientCard } from '../../features/clients/components/admin-client-card';
import { AdminThresholdCard } from '../../features/clients/components/admin-threshold-card';
import { ClientLimitsCard } from '../../features/clients/components/client-limits-card';
import { StopTrafficCard } from '../../features/clients/components/stop-traffic-card';
import { ClientNameForm } from '../../features/clients/components/client-name-form';
import { AdminClientConversations } from '../../features/conversations/components/conversation-list';
import { AdminClientMessages } from '../../features/messages/components/admin-client-messages';
import { ClientNumbersCard } from '../../features/numbers/components/client-numbers-card';
import { routeSplitAccess } from '../../features/route-splits/access';
import { RouteSplitList } from '../../features/route-splits/components/route-split-list';
import { errorText, isApiError } from '../../lib/api-error';
import { useCanCall } from '../../lib/permissions';

/**
 * /admin/clients/{id}: the Client card, the Balance card and the Route Splits (spec §2), the
 * low-balance threshold (issue 12), its destinations and throughput (issue 19), its inbound
 * numbers and conversations (issue 32), then the client's messages. Each part is shown to the roles
 * that may make its calls (issue 17): a refused call would log the user out.
 */
export function AdminClientRoute() {
  return (
    <>
      <AdminClientPage />
    </>
  );
}

function AdminClientPage() {
  const { clientId = '' } = useParams();
  const client = useAdminClient(clientId);
  const canViewUser = useCanCall({ family: 'USER', verb: 'VIEW' });
  const canKeepNumbers = useCanCall({ family: 'NUMBER', verb: 'ADMIN' });

  if (client.isPending) {
    return (
      <div className="stack" aria-busy="true">
        <span className="sr-only">Loading the client</span>
        <Skeleton width="12em" height="28px" />
        <div className="card-grid">
          <Skeleton height="140px" />
          <Skeleton height="140px" />
        </div>
        <Skeleton height="120px" />
      </div>
    );
  }
  if (client.isError) {
    return (
      <>
        <PageHeader title="Client" />
        <Alert tone="danger">
          {isApiError(client.error, 404)
            ? 'This client does not exist or has been deleted.'
            : errorText(client.error)}
        </Alert>
      </>
    );
  }

  return (
    <div className="stack">
      <PageHeader
        title={client.data.name}
        description="Client"
        actions={
          canViewUser ? (
            <ButtonLink to={paths.adminUser(client.data.userId)}>
              View User
            </ButtonLink>
          ) : null
        }
      />
      <div className="card-grid">
        <AdminClientCard
          client={client.data}
          editForm={(done) => (
            <ClientNameForm client={client.data} asAdmin onDone={done} />
          )}
        />
        <AdminBalanceCard clientId={client.data.id} />
        <AdminThresholdCard clientId={client.data.id} />
        <ClientLimitsCard client={client.data} asAdmin />
        <StopTrafficCard client={client.data} />
        <ClientNumbersCard
          clientId={client.data.id}
          asAdmin
          actions={
            canKeepNumbers ? (
              <ButtonLink
                size="sm"
                to={paths.adminClientNumbers(client.data.id)}
              >
                Manage numbers
              </ButtonLink>
            ) : null
          }
        />
      </div>
      <RoleGate title="Route Splits" access={routeSplitAccess.list}>
        <RouteSplitList client={client.data} />
      </RoleGate>
      <AdminClientConversations clientId={client.data.id} />
      <AdminClientMessages clientId={client.data.id} />
    </div>
  );
}
