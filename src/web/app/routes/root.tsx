import { Outlet, useRouteError } from 'react-router';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { ToastProvider } from '../../components/ui/toaster';
import '../../components/ui/page-header.css';
import './root.css';

/** Providers that need the router; the side panel's is in the query layout. */
export function RootLayout() {
  return (
    <ToastProvider>
      <Outlet />
    </ToastProvider>
  );
}

/** Shown while the first screen's code loads. */
export function AppLoading() {
  return (
    <div className="app-loading">
      <Spinner label="Loading" />
    </div>
  );
}

/** Last resort for an unexpected error, such as a screen's code failing to load. */
export function RouteError() {
  const error = useRouteError();
  return (
    <div className="app-loading">
      <div className="card stack error-card">
        <h1 className="page-title">Something went wrong</h1>
        <p role="alert">
          {error instanceof Error
            ? error.message
            : 'An unexpected error happened.'}
        </p>
        <Button variant="primary" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </div>
    </div>
  );
}
