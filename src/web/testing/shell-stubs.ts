import type { Client } from '../../shared/schemas/clients';
import type { MyUser } from '../../shared/schemas/users';
import type { Route } from './mock-api';
import { makeBalance, makeClient, makeUser } from './test-data';

/** The calls every customer screen makes: the user, the clients, the current balance. */
export function shellRoutes(
  options: { user?: MyUser; clients?: Client[] } = {},
): Record<string, Route> {
  const clients = options.clients ?? [makeClient()];
  return {
    'GET /api/users/me': { body: options.user ?? makeUser() },
    'GET /api/clients': {
      body: { clients, total: clients.length, count: 30, offset: 0 },
    },
    ...Object.fromEntries(
      clients.map((client) => [
        `GET /api/clients/${client.id}/balances/default`,
        { body: makeBalance({ id: client.id }) },
      ]),
    ),
    // The home screen (/billing/balance) opens on Top-up History, read from the ledger.
    ...Object.fromEntries(
      clients.map((client) => [
        `GET /api/clients/${client.id}/balances/default/ledger`,
        { body: { entries: [], total: 0, count: 20, offset: 0 } },
      ]),
    ),
  };
}
