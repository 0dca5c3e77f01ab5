import { render } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { createHashRouter, RouterProvider } from 'react-router';
import type { Branding } from '../../shared/schemas/branding';
import { AppProvider } from '../app/provider';
import { routes } from '../app/router';
import { primeBranding } from '../features/branding/api/get-branding';
import { saveCredentials } from '../lib/credentials';
import { createQueryClient } from '../lib/query-client';
import { testBranding } from './test-data';

const routers = new Set<ReturnType<typeof createHashRouter>>();

/** Stops the routers of finished tests from following later hash changes. */
export function disposeRouters(): void {
  for (const router of routers) router.dispose();
  routers.clear();
}

/** Renders the app's router at `path`, inside the app's providers (`queryClient` if given). */
function mount(path: string, queryClient?: QueryClient) {
  window.location.hash = `#${path}`;
  const router = createHashRouter(routes);
  routers.add(router);
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, user };
}

/**
 * Renders the whole app (real routes, hash router) at `path`, with the branding already
 * loaded. `loggedIn` stores credentials first, as the Login screen would.
 */
export function renderApp(
  path: string,
  options: { loggedIn?: boolean; branding?: Branding } = {},
) {
  if (options.loggedIn) {
    saveCredentials({ email: 'ada@example.test', password: 'password-123' });
  }
  primeBranding(options.branding ?? testBranding);
  const queryClient = createQueryClient();
  return { ...mount(path, queryClient), queryClient };
}

/**
 * Renders the app as main.tsx starts it on a first visit: no query client and no branding
 * yet, both made when a screen first needs them (the branding from `GET /api/config`).
 */
export function renderFirstVisit(path: string) {
  return mount(path);
}

/** The current route path of the app, from the hash. */
export function currentPath(): string {
  return window.location.hash.replace(/^#/, '') || '/';
}
