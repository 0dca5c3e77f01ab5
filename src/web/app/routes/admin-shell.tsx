import { Link, Outlet } from 'react-router';
import { ShellLayout } from '../../components/layouts/shell-layout';
import { Sidebar } from '../../components/layouts/sidebar';
import { useToast } from '../../components/ui/toaster';
import { adminNav, visibleNav } from '../../config/nav';
import { paths } from '../../config/paths';
import {
  PoweredBy,
  ProductName,
} from '../../features/branding/components/branding';
import { useMe } from '../../features/users/api/get-me';
import { UserMenu } from '../../features/users/components/user-menu';
import { MenuButton, useDrawer, useLogoutConfirmation } from '../shell-chrome';
import './admin-shell.css';

const NO_GROUPS: ReadonlySet<string> = new Set();

/**
 * The admin shell (spec §2): the same frame as the customer shell with its own label and
 * accent, and the sidebar Clients, Users, Pricing (and Audit Log for ROLE_AUDIT_LIST, which
 * only hides the entry: each admin call is still authorized by the server, and a refusal sends
 * the user to /login, spec §6).
 */
export function AdminShellRoute() {
  const toast = useToast();
  const me = useMe();
  const drawer = useDrawer();
  const logoutConfirmation = useLogoutConfirmation();

  const navbar = (
    <>
      <MenuButton open={drawer.open} onToggle={drawer.toggle} />
      <Link to={paths.admin} className="brand">
        <ProductName /> <span className="brand-badge">Admin</span>
      </Link>
      <div className="navbar-end">
        <Link to={paths.home} className="navbar-link">
          Customer console
        </Link>
        <UserMenu
          firstName={me.data?.firstName}
          loading={me.isPending}
          onLogout={logoutConfirmation.ask}
        />
      </div>
    </>
  );

  return (
    <>
      <ShellLayout
        variant="admin"
        navbar={navbar}
        sidebar={
          <Sidebar
            items={visibleNav(adminNav, me.data?.roles ?? [])}
            expanded={NO_GROUPS}
            onToggle={() => undefined}
            onAlert={(text) =>
              toast.show(text, { role: 'alert', tone: 'info' })
            }
            renderComponent={() => null}
          />
        }
        footer={<PoweredBy />}
        menuOpen={drawer.open}
        onCloseMenu={drawer.close}
      >
        <Outlet />
      </ShellLayout>
      {logoutConfirmation.dialog}
    </>
  );
}
