import { http, HttpResponse, type RequestHandler } from 'msw';
import type { Client } from '../../shared/schemas/clients';
import type { MyUser } from '../../shared/schemas/users';
import { makeBalance, makeClient, makeUser } from './test-data';

/**
 * MSW handlers for the calls every customer screen makes (the user, the clients, each
 * client's balance): the MSW twin of shellRoutes, for tests that answer everything with MSW.
 */
export function shellHandlers(
  options: { user?: MyUser; clients?: Client[] } = {},
): RequestHandler[] {
  const clients = options.clients ?? [makeClient()];
  return [
    http.get('/api/users/me', () =>
      HttpResponse.json(options.user ?? makeUser()),
    ),
    http.get('/api/clients', () =>
      HttpResponse.json({
        clients,
        total: clients.length,
        count: 30,
        offset: 0,
      }),
    ),
    http.get('/api/clients/:clientId/balances/default', ({ params }) =>
      HttpResponse.json(makeBalance({ id: String(params.clientId) })),
    ),
  ];
}
