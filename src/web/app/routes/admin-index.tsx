import { Navigate } from 'react-router';
import { AUDIT_LIST_ROLE, opensAdminArea } from '../../../shared/roles';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useMe } from '../../features/users/api/get-me';

/**
 * /admin opens Clients (spec §2). Staff whose only admin role is ROLE_AUDIT_LIST go to the
 * audit log instead: Clients would answer 403, which logs the user out.
 */
export function AdminIndexRoute() {
  const me = useMe();
  if (me.isPending) return <Spinner label="Loading" />;
  const roles = me.data?.roles ?? [];
  const auditOnly =
    roles.includes(AUDIT_LIST_ROLE) &&
    !opensAdminArea(roles.filter((role) => role !== AUDIT_LIST_ROLE));
  return (
    <Navigate replace to={auditOnly ? paths.adminAudit : paths.adminClients} />
  );
}
