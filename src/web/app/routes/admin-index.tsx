import { Navigate } from 'react-router';
import { ButtonLink } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { adminNav, visibleNav } from '../../config/nav';
import { paths } from '../../config/paths';
import { useMe } from '../../features/users/api/get-me';

/**
 * /admin opens Clients (spec §2), or the first admin screen the user's roles open (Users, the
 * audit log): a screen they cannot list would answer 403, which logs the user out. With none
 * (a customer who typed the address) it says so, and nothing is asked of the server.
 */
export function AdminIndexRoute() {
  // The admin shell renders its screens once the user has been loaded.
  const roles = useMe().data?.roles ?? [];
  const first = visibleNav(adminNav, roles).find(
    (item) => item.type === 'item' && item.url,
  );
  if (first?.type === 'item' && first.url) {
    return <Navigate replace to={first.url} />;
  }
  return (
    <>
      <PageHeader title="Admin" />
      <div className="card stack-sm">
        <p className="muted">Your roles open no admin screen.</p>
        <div>
          <ButtonLink to={paths.home}>Back to the console</ButtonLink>
        </div>
      </div>
    </>
  );
}
