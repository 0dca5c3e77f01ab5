import { useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { PageHeader } from '../../components/ui/page-header';
import { RoleGate } from '../../components/ui/role-gate';
import { Skeleton } from '../../components/ui/spinner';
import { useAdminUser } from '../../features/users/api/get-admin-user';
import { AdminUserCard } from '../../features/users/components/admin-user-card';
import { displayName } from '../../features/users/components/admin-user-table';
import { UserClients } from '../../features/clients/components/user-clients';
import { CreateClientForm } from '../../features/clients/components/create-client-form';
import { UserRoles } from '../../features/roles/components/user-roles';
import { useMe } from '../../features/users/api/get-me';
import { errorText, isApiError } from '../../lib/api-error';
import './admin-user.css';

/**
 * /admin/users/{id}: the user card, the user's clients and roles (spec §2), each shown to the
 * roles that may make its calls (issue 17): a refused call would log the user out.
 */
export function AdminUserRoute() {
  return (
    <>
      <AdminUserPage />
    </>
  );
}

function AdminUserPage() {
  const { userId = '' } = useParams();
  const user = useAdminUser(userId);
  // The signed-in user, whose roles decide which role changes the editor offers (issue 9);
  // the admin shell has already asked for it.
  const me = useMe();

  if (user.isPending || me.isPending) {
    return (
      <div className="stack" aria-busy="true">
        <span className="sr-only">Loading the user</span>
        <Skeleton width="12em" height="28px" />
        <Skeleton height="140px" />
        <Skeleton height="120px" />
      </div>
    );
  }
  if (user.isError) {
    return (
      <>
        <PageHeader title="User" />
        <Alert tone="danger">
          {isApiError(user.error, 404)
            ? 'This user does not exist.'
            : errorText(user.error)}
        </Alert>
      </>
    );
  }

  return (
    <div className="stack">
      <PageHeader title={displayName(user.data)} description="User" />
      <div className="user-layout">
        <AdminUserCard user={user.data} />
        {me.isError ? (
          <Alert tone="danger">{errorText(me.error)}</Alert>
        ) : (
          <RoleGate title="Roles" access={{ family: 'USERROLE', verb: 'LIST' }}>
            <UserRoles
              user={user.data}
              caller={{ id: me.data.id, roles: me.data.roles }}
            />
          </RoleGate>
        )}
      </div>
      <RoleGate title="Clients" access={{ family: 'CLIENT', verb: 'LIST' }}>
        <UserClients
          userId={user.data.id}
          newClientForm={<CreateClientForm userId={user.data.id} />}
        />
      </RoleGate>
    </div>
  );
}
