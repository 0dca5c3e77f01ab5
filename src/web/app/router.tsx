import type { ComponentType } from 'react';
import { createHashRouter, redirect, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import { isLoggedIn } from '../lib/credentials';
import { AppLoading, RootLayout, RouteError } from './routes/root';

/** Spec §9: a screen's code that has not arrived after 120 s is an error, not a blank page. */
const CHUNK_TIMEOUT_MS = 120_000;

function screen<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
): RouteObject['lazy'] {
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('The screen took too long to load.')),
        CHUNK_TIMEOUT_MS,
      );
    });
    try {
      return { Component: pick(await Promise.race([load(), timeout])) };
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The guard of the customer shell (spec §4): both stored credentials, or /login. */
function requireLogin() {
  return isLoggedIn() ? null : redirect(paths.login);
}

/** An index route that only redirects; `element: null` says it renders nothing on purpose. */
const redirectTo = (path: string): RouteObject => ({
  index: true,
  loader: () => redirect(path),
  element: null,
});

/** Any unknown route inside a shell (spec §2). */
const notFound: RouteObject = {
  path: '*',
  lazy: screen(
    () => import('./routes/not-found'),
    (m) => m.NotFoundRoute,
  ),
};

/** Public, but registering is a mutation: it sits under the query layout. */
const registerRoute: RouteObject = {
  path: paths.register,
  lazy: screen(
    () => import('./routes/register'),
    (m) => m.RegisterRoute,
  ),
};

/** The customer shell and its screens (spec §4). */
const customerShell: RouteObject = {
  path: paths.home,
  loader: requireLogin,
  lazy: screen(
    () => import('./routes/customer-shell'),
    (m) => m.CustomerShellRoute,
  ),
  children: [
    redirectTo(paths.billing),
    {
      path: paths.billing,
      children: [
        redirectTo(paths.billingBalance),
        {
          path: paths.billingBalance,
          lazy: screen(
            () => import('./routes/billing-balance'),
            (m) => m.BillingBalanceRoute,
          ),
        },
        {
          path: paths.billingPrices,
          lazy: screen(
            () => import('./routes/billing-prices'),
            (m) => m.BillingPricesRoute,
          ),
        },
        {
          path: paths.paymentMethods,
          lazy: screen(
            () => import('./routes/billing-payment-methods'),
            (m) => m.BillingPaymentMethodsRoute,
          ),
        },
      ],
    },
    {
      path: paths.quickstart,
      lazy: screen(
        () => import('./routes/quickstart'),
        (m) => m.QuickStartRoute,
      ),
    },
    {
      // The Send SMS, Bulk send and Message Log screens under tabs of their own.
      path: paths.messaging,
      lazy: screen(
        () => import('./routes/messaging'),
        (m) => m.MessagingRoute,
      ),
      children: [
        redirectTo(paths.sms),
        {
          path: paths.sms,
          lazy: screen(
            () => import('./routes/messaging-sms'),
            (m) => m.MessagingSmsRoute,
          ),
        },
        {
          path: paths.bulk,
          lazy: screen(
            () => import('./routes/messaging-bulk'),
            (m) => m.MessagingBulkRoute,
          ),
        },
        {
          path: `${paths.bulk}/:batchId`,
          lazy: screen(
            () => import('./routes/messaging-batch'),
            (m) => m.MessagingBatchRoute,
          ),
        },
        {
          path: paths.messageLog,
          lazy: screen(
            () => import('./routes/messaging-log'),
            (m) => m.MessagingLogRoute,
          ),
        },
        {
          path: paths.inbox,
          lazy: screen(
            () => import('./routes/messaging-inbox'),
            (m) => m.MessagingInboxRoute,
          ),
        },
        {
          path: `${paths.inbox}/:number`,
          lazy: screen(
            () => import('./routes/messaging-conversation'),
            (m) => m.MessagingConversationRoute,
          ),
        },
        {
          path: paths.optouts,
          lazy: screen(
            () => import('./routes/messaging-optouts'),
            (m) => m.MessagingOptoutsRoute,
          ),
        },
      ],
    },
    {
      path: paths.myUser,
      lazy: screen(
        () => import('./routes/my-user'),
        (m) => m.MyUserRoute,
      ),
    },
    {
      path: paths.changePassword,
      lazy: screen(
        () => import('./routes/change-password'),
        (m) => m.ChangePasswordRoute,
      ),
    },
    {
      path: paths.clients,
      lazy: screen(
        () => import('./routes/clients'),
        (m) => m.ClientsRoute,
      ),
    },
    {
      path: '/clients/:clientId',
      lazy: screen(
        () => import('./routes/client'),
        (m) => m.ClientRoute,
      ),
    },
    notFound,
  ],
};

/** Its own lazy chunks: customers never download admin code. */
const adminShell: RouteObject = {
  path: paths.admin,
  loader: requireLogin,
  lazy: screen(
    () => import('./routes/admin-shell'),
    (m) => m.AdminShellRoute,
  ),
  children: [
    {
      index: true,
      lazy: screen(
        () => import('./routes/admin-index'),
        (m) => m.AdminIndexRoute,
      ),
    },
    {
      path: paths.adminClients,
      lazy: screen(
        () => import('./routes/admin-clients'),
        (m) => m.AdminClientsRoute,
      ),
    },
    {
      path: '/admin/clients/:clientId',
      lazy: screen(
        () => import('./routes/admin-client'),
        (m) => m.AdminClientRoute,
      ),
    },
    {
      path: paths.adminUsers,
      lazy: screen(
        () => import('./routes/admin-users'),
        (m) => m.AdminUsersRoute,
      ),
    },
    {
      path: '/admin/users/:userId',
      lazy: screen(
        () => import('./routes/admin-user'),
        (m) => m.AdminUserRoute,
      ),
    },
    {
      path: paths.adminAudit,
      lazy: screen(
        () => import('./routes/admin-audit'),
        (m) => m.AdminAuditRoute,
      ),
    },
    {
      path: paths.adminOperations,
      lazy: screen(
        () => import('./routes/admin-operations'),
        (m) => m.AdminOperationsRoute,
      ),
    },
    {
      path: paths.adminPrices,
      lazy: screen(
        () => import('./routes/admin-prices'),
        (m) => m.AdminPricesRoute,
      ),
    },
    {
      path: paths.adminNumbers,
      lazy: screen(
        () => import('./routes/admin-numbers'),
        (m) => m.AdminNumbersRoute,
      ),
    },
    notFound,
  ],
};

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: AppLoading,
    ErrorBoundary: RouteError,
    children: [
      {
        path: paths.login,
        lazy: screen(
          () => import('./routes/login'),
          (m) => m.LoginRoute,
        ),
      },
      {
        // React Query and the screens that read server state, in lazy chunks: the login page,
        // the first screen of most visits, needs neither.
        lazy: screen(
          () => import('./routes/query-layout'),
          (m) => m.QueryLayout,
        ),
        children: [registerRoute, customerShell, adminShell],
      },
    ],
  },
];

export function createAppRouter() {
  return createHashRouter(routes);
}
