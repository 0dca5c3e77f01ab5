import { Navigate } from 'react-router';
import { adminNav, visibleNav } from '../../config/nav';
import { paths } from '../../config/paths';
import { useMe } from '../../features/users/api/get-me';

/**
 * /admin opens Clients (spec §2), or the first admin screen the user's roles open (Users, the
 * audit log): staff who cannot list clients would get a 403 there, which logs them out. With no
 * admin role at all (a customer who typed the address) it is Clients too: the console does not
 * judge roles itself, the server refuses and the customer goes to /login (spec §6, §8).
 */
export function AdminIndexRoute() {
  // The admin shell renders its screens once the user has been loaded.
  const roles = useMe().data?.roles ?? [];
  const first = visibleNav(adminNav, roles).find(
    (item) => item.type === 'item' && item.url,
  );
  const to =
    first?.type === 'item' && first.url ? first.url : paths.adminClients;
  return <Navigate replace to={to} />;
}
