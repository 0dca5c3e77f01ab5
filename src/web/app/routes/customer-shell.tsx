import { useEffect, useMemo, useRef, useState } from 'react';
import { opensAdminArea } from '../../../shared/roles';
import {
  Link,
  Outlet,
  useLocation,
  useNavigate,
  useNavigation,
} from 'react-router';
import { ShellLayout } from '../../components/layouts/shell-layout';
import { Sidebar } from '../../components/layouts/sidebar';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toaster';
import { customerNav } from '../../config/nav';
import { paths } from '../../config/paths';
import { BalanceWidget } from '../../features/balances/components/balance-widget';
import { useClients } from '../../features/clients/api/get-clients';
import { ClientSelector } from '../../features/clients/components/client-selector';
import {
  PoweredBy,
  ProductName,
} from '../../features/branding/components/branding';
import { useMe } from '../../features/users/api/get-me';
import { UserMenu } from '../../features/users/components/user-menu';
import { isApiError } from '../../lib/api-error';
import { setAuthNotice } from '../../lib/auth-notice';
import { readClientId, saveClientId } from '../../lib/client-id-store';
import { CurrentClientContext } from '../current-client';
import { MenuButton, useDrawer, useLogoutConfirmation } from '../shell-chrome';

/**
 * The customer shell (spec §2, §4): loads the user and the clients, picks the current client,
 * and frames every customer screen with the navbar, the sidebar and the footer.
 */
export function CustomerShellRoute() {
  const navigate = useNavigate();
  const toast = useToast();
  const me = useMe();
  const clients = useClients();

  const [storedClientId, setStoredClientId] = useState(readClientId);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const drawer = useDrawer();
  const logoutConfirmation = useLogoutConfirmation();

  const list = useMemo(() => clients.data?.clients ?? [], [clients.data]);
  const currentClient =
    list.find((client) => client.id === storedClientId) ?? list[0] ?? null;

  const clientState = useMemo(
    () => ({
      clients: list,
      currentClient,
      selectClient(clientId: string) {
        saveClientId(clientId);
        setStoredClientId(clientId);
      },
    }),
    [list, currentClient],
  );

  // With no clients the first load goes to Quick Start (spec §4), but only while the user is
  // still where the shell opened: one who has meanwhile gone elsewhere, or is on the way to a
  // screen whose code is still loading (the admin area), stays there (issue 17).
  const location = useLocation();
  const navigation = useNavigation();
  const landingKey = useRef(location.key);
  const sentToQuickstart = useRef(false);
  useEffect(() => {
    if (!clients.data || sentToQuickstart.current) return;
    if (navigation.state !== 'idle') return;
    sentToQuickstart.current = true;
    if (
      clients.data.clients.length === 0 &&
      location.key === landingKey.current
    ) {
      navigate(paths.quickstart, { replace: true });
    }
  }, [clients.data, navigation.state, location.key, navigate]);

  // A network error while loading the user or the clients goes to /login (spec §4);
  // 401/403 are handled once, by the api-client.
  const unreachable = [me.error, clients.error].some(
    (error) => error && !isApiError(error),
  );
  useEffect(() => {
    if (!unreachable) return;
    setAuthNotice({
      tone: 'error',
      text: 'The server could not be reached. Please log in again.',
    });
    navigate(paths.login, { replace: true });
  }, [unreachable, navigate]);

  const loadError = [me.error, clients.error].find(
    (error) =>
      isApiError(error) && error.status !== 401 && error.status !== 403,
  );

  function toggleGroup(name: string) {
    setExpanded((open) => {
      const next = new Set(open);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
  }

  const ready = me.isSuccess && clients.isSuccess;

  const navbar = (
    <>
      <MenuButton open={drawer.open} onToggle={drawer.toggle} />
      <Link to={paths.home} className="brand">
        <ProductName />
      </Link>
      <div className="navbar-end">
        <ClientSelector
          clients={list}
          currentId={currentClient?.id ?? null}
          loading={clients.isPending}
          onSelect={clientState.selectClient}
        />
        <UserMenu
          firstName={me.data?.firstName}
          loading={me.isPending}
          onLogout={logoutConfirmation.ask}
          extraItems={
            opensAdminArea(me.data?.roles ?? [])
              ? [
                  {
                    key: 'admin',
                    text: 'Admin',
                    onSelect: () => navigate(paths.admin),
                  },
                ]
              : []
          }
        />
      </div>
    </>
  );

  const sidebar = (
    <Sidebar
      items={customerNav}
      expanded={expanded}
      onToggle={toggleGroup}
      onAlert={(text) => toast.show(text, { role: 'alert', tone: 'info' })}
      renderComponent={() => (
        <BalanceWidget
          clientId={currentClient?.id ?? null}
          clientsLoading={clients.isPending}
          onViewDetails={() => {
            // Selects the billing entry (spec: tab 'billing#balance') and goes to /billing.
            setExpanded((open) => new Set(open).add('Billing'));
            navigate(paths.billing);
          }}
        />
      )}
    />
  );

  return (
    <CurrentClientContext value={clientState}>
      <ShellLayout
        variant="customer"
        navbar={navbar}
        sidebar={sidebar}
        footer={<PoweredBy />}
        menuOpen={drawer.open}
        onCloseMenu={drawer.close}
      >
        {loadError ? (
          <Alert tone="danger">
            Your account could not be loaded: {loadError.message}{' '}
            <Button
              size="sm"
              onClick={() => {
                void me.refetch();
                void clients.refetch();
              }}
            >
              Try again
            </Button>
          </Alert>
        ) : ready ? (
          <Outlet />
        ) : (
          <PageSkeleton />
        )}
      </ShellLayout>
      {logoutConfirmation.dialog}
    </CurrentClientContext>
  );
}

function PageSkeleton() {
  return (
    <div className="stack" aria-busy="true">
      <span className="sr-only">Loading</span>
      <Skeleton width="12em" height="28px" />
      <Skeleton height="120px" />
      <Skeleton height="120px" />
    </div>
  );
}
