import { Link, Outlet } from 'react-router';
import { ShellLayout } from '../../components/layouts/shell-layout';
import { Sidebar } from '../../components/layouts/sidebar';
import { Alert } from '../../components/ui/alert';
import { Skeleton } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toaster';
import { adminNav, visibleNav } from '../../config/nav';
import { paths } from '../../config/paths';
import {
  PoweredBy,
  ProductName,
} from '../../features/branding/components/branding';
import { useMe } from '../../features/users/api/get-me';
import { UserMenu } from '../../features/users/components/user-menu';
import { errorText } from '../../lib/api-error';
import { CallerRolesContext } from '../../lib/permissions';
import { MenuButton, useDrawer, useLogoutConfirmation } from '../shell-chrome';
import './admin-shell.css';

const NO_GROUPS: ReadonlySet<string> = new Set();

/**
 * The admin shell (spec §2): the same frame as the customer shell with its own label and
 * accent, and the sidebar Clients, Users, Audit Log, Operations, Pricing, each shown to the roles that open
 * it. Screens render once the user's roles are known, and offer only the sections and actions
 * those roles reach (lib/permissions.ts): the server still decides every call, and a refusal
 * sends the user to /login (spec §6, §8).
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
        <span className="brand-name">
          <ProductName />
        </span>{' '}
        <span className="brand-badge">Admin</span>
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
        {me.isSuccess ? (
          <CallerRolesContext value={me.data.roles}>
            <Outlet />
          </CallerRolesContext>
        ) : me.isError ? (
          <Alert tone="danger">{errorText(me.error)}</Alert>
        ) : (
          <div className="stack" aria-busy="true">
            <span className="sr-only">Loading</span>
            <Skeleton width="12em" height="28px" />
            <Skeleton height="120px" />
          </div>
        )}
      </ShellLayout>
      {logoutConfirmation.dialog}
    </>
  );
}
