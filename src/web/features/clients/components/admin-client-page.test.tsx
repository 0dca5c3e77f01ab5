import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server';
import { adminBalanceQueryOptions } from '../api/get-admin-balance';
import { renderApp } from '../../../testing/render-app';
import { mockApi, type Route } from '../../../testing/mock-api';
import { makeBalance, makeClient, makeUser } from '../../../testing/test-data';

const client = makeClient({ name: 'Web shop' });
const balance = makeBalance({ id: client.id, amount: 0 });
const split = (
  id: string,
  deliveryMethod: string,
  weight: number,
  carried: { realisedShare: number | null; messages24h: number } = {
    realisedShare: null,
    messages24h: 0,
  },
) => ({
  id,
  userId: client.userId,
  clientId: client.id,
  deliveryMethod,
  weight,
  configuredShare: 0,
  ...carried,
});
const splitA = split('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'VONAGE_SMS', 10);
const splitB = split(
  'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  'MELROSE_SMPP',
  30,
);

function clientPageRoutes(routes = [splitA, splitB]): Record<string, Route> {
  return {
    'GET /api/users/me': {
      body: makeUser({ roles: ['ROLE_CLIENT_ADMIN', 'ROLE_ROUTE_ADMIN'] }),
    },
    [`GET /api/admin/clients/${client.id}`]: { body: client },
    [`GET /api/admin/clients/${client.id}/balances/default`]: {
      body: balance,
    },
    'GET /api/admin/routes/split': {
      body: { routes, total: routes.length, count: 300, offset: 0 },
    },
    [`GET /api/admin/clients/${client.id}/messages`]: {
      body: { messages: [], total: 0, count: 0, offset: 0 },
    },
    [`GET /api/admin/clients/${client.id}/numbers`]: { body: { numbers: [] } },
    [`GET /api/admin/clients/${client.id}/conversations`]: {
      body: { conversations: [], total: 0, count: 30, offset: 0 },
    },
  };
}

describe('Admin client page', () => {
  it('a viewer without route or update roles sees the client, no route splits asked, nothing to edit', async () => {
    const viewer = makeUser({
      roles: [
        'ROLE_CLIENT_LIST',
        'ROLE_CLIENT_VIEW',
        'ROLE_USER_LIST',
        'ROLE_USER_VIEW',
      ],
    });
    const { requests } = mockApi({
      ...clientPageRoutes(),
      'GET /api/users/me': { body: viewer },
    });
    renderApp(`/admin/clients/${client.id}`, { loggedIn: true });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Web shop' }),
    ).toBeInTheDocument();
    const splits = screen.getByRole('region', { name: 'Route Splits' });
    expect(splits).toHaveTextContent(
      'Not available with your roles. Needs ROLE_ROUTE_ADMIN or ROLE_ROUTE_LIST.',
    );
    // The balance is shown, but neither it nor the client opens an edit panel.
    expect(await screen.findByText('EUR 0.00')).toBeInTheDocument();
    // The client card and the balance card each say why they do not open.
    expect(
      screen.getAllByText('Needs ROLE_CLIENT_ADMIN or ROLE_CLIENT_UPDATE'),
    ).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /^Balance / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Client / })).toBeNull();
    expect(screen.queryByLabelText('Minimum balance')).toBeNull();
    expect(screen.getByRole('link', { name: 'View User' })).toBeInTheDocument();
    await waitFor(() =>
      expect(
        requests.some(
          (r) => r.path === `/api/admin/clients/${client.id}/messages`,
        ),
      ).toBe(true),
    );
    expect(requests.some((r) => r.path.startsWith('/api/admin/routes'))).toBe(
      false,
    );
  });

  it('a route lister sees the splits but no New Route Split, and a split does not open', async () => {
    mockApi({
      ...clientPageRoutes(),
      'GET /api/users/me': {
        body: makeUser({ roles: ['ROLE_CLIENT_VIEW', 'ROLE_ROUTE_LIST'] }),
      },
    });
    renderApp(`/admin/clients/${client.id}`, { loggedIn: true });
    expect(await screen.findByText('MELROSE_SMPP')).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'New Route Split' }),
    ).toBeNull();
    expect(
      screen.queryByRole('button', { name: /edit or delete$/ }),
    ).toBeNull();
    expect(screen.queryByRole('link', { name: 'View User' })).toBeNull();
  });

  it('shows the client, the balance id labelled Client ID, and each split with its share', async () => {
    mockApi(
      clientPageRoutes([
        splitA,
        split(splitB.id, 'MELROSE_SMPP', 30, {
          realisedShare: 0.7021,
          messages24h: 702,
        }),
      ]),
    );
    renderApp(`/admin/clients/${client.id}`, { loggedIn: true });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Web shop' }),
    ).toBeInTheDocument();
    const card = await screen.findByRole('button', {
      name: 'Balance EUR 0.00: give free credit',
    });
    expect(within(card).getByText('Client ID')).toBeInTheDocument();
    const rows = await screen.findAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Delivery methodWeightShareCarried (24 h)',
      'VONAGE_SMS1025 %—',
      'MELROSE_SMPP3075 %70.2 % (702)',
    ]);
  });

  it('free credit: refuses what is not a decimal, asks with the amount, and Cancel sends nothing', async () => {
    const { requests } = mockApi(clientPageRoutes());
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    await user.click(
      await screen.findByRole('button', { name: /^Balance EUR 0\.00/ }),
    );
    const panel = screen.getByRole('dialog', { name: 'Free Credit' });
    const amount = within(panel).getByLabelText('Amount');
    const give = within(panel).getByRole('button', {
      name: 'Give Free Credit',
    });

    for (const bad of ['', 'abc', '-5', '0', '1e3', '1.23456']) {
      await user.clear(amount);
      if (bad) await user.type(amount, bad);
      await user.click(give);
      expect(
        within(panel).getByText(
          'Enter an amount above 0, such as 25 or 12.50.',
        ),
      ).toBeInTheDocument();
      expect(screen.queryByRole('alertdialog')).toBeNull();
    }

    await user.clear(amount);
    await user.type(amount, '007.50');
    await user.click(give);
    const question = screen.getByRole('alertdialog', {
      name: 'Are you sure you want to give 7.5 free credit to the client?',
    });
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('free credit: OK sends the amount as decimal text and the card shows the new balance', async () => {
    const { requests } = mockApi({
      ...clientPageRoutes(),
      [`POST /api/admin/clients/${client.id}/balances/${balance.id}/freecredit`]:
        { body: { ...balance, amount: 12.5 } },
    });
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    await user.click(
      await screen.findByRole('button', { name: /^Balance EUR 0\.00/ }),
    );
    const panel = screen.getByRole('dialog', { name: 'Free Credit' });
    await user.type(within(panel).getByLabelText('Amount'), '12.5');
    await user.click(
      within(panel).getByRole('button', { name: 'Give Free Credit' }),
    );
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', {
        name: 'OK',
      }),
    );
    expect(
      await screen.findByRole('button', { name: /^Balance EUR 12\.50/ }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      amount: '12.5',
    });
  });

  it('free credit: the reason is sent with the amount, trimmed; the question stays the same', async () => {
    const { requests } = mockApi({
      ...clientPageRoutes(),
      [`POST /api/admin/clients/${client.id}/balances/${balance.id}/freecredit`]:
        { body: { ...balance, amount: 5 } },
    });
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    await user.click(
      await screen.findByRole('button', { name: /^Balance EUR 0\.00/ }),
    );
    const panel = screen.getByRole('dialog', { name: 'Free Credit' });
    await user.type(within(panel).getByLabelText('Amount'), '5');
    await user.type(
      within(panel).getByLabelText('Reason'),
      '  Goodwill after outage 42  ',
    );
    await user.click(
      within(panel).getByRole('button', { name: 'Give Free Credit' }),
    );
    await user.click(
      within(
        screen.getByRole('alertdialog', {
          name: 'Are you sure you want to give 5 free credit to the client?',
        }),
      ).getByRole('button', { name: 'OK' }),
    );
    expect(
      await screen.findByRole('button', { name: /^Balance EUR 5\.00/ }),
    ).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      amount: '5',
      reason: 'Goodwill after outage 42',
    });
  });

  it('free credit: a reason over 200 characters is refused with a message and nothing is asked or sent', async () => {
    const { requests } = mockApi(clientPageRoutes());
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    await user.click(
      await screen.findByRole('button', { name: /^Balance EUR 0\.00/ }),
    );
    const panel = screen.getByRole('dialog', { name: 'Free Credit' });
    await user.type(within(panel).getByLabelText('Amount'), '5');
    const reason = within(panel).getByLabelText('Reason');
    await user.click(reason);
    await user.paste('x'.repeat(201));
    await user.click(
      within(panel).getByRole('button', { name: 'Give Free Credit' }),
    );
    expect(
      within(panel).getByText('Reason must be at most 200 characters'),
    ).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    // Exactly 200 is accepted.
    await user.clear(reason);
    await user.paste('x'.repeat(200));
    await user.click(
      within(panel).getByRole('button', { name: 'Give Free Credit' }),
    );
    expect(
      screen.getByRole('alertdialog', {
        name: 'Are you sure you want to give 5 free credit to the client?',
      }),
    ).toBeInTheDocument();
  });

  it('the free-credit panel follows the balance while it is open', async () => {
    mockApi(clientPageRoutes());
    const { user, queryClient } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    await user.click(
      await screen.findByRole('button', { name: /^Balance EUR 0\.00/ }),
    );
    const panel = screen.getByRole('dialog', { name: 'Free Credit' });
    expect(within(panel).getByText('EUR 0.00')).toBeInTheDocument();
    queryClient.setQueryData(adminBalanceQueryOptions(client.id).queryKey, {
      ...balance,
      amount: 3,
    });
    expect(await within(panel).findByText('EUR 3.00')).toBeInTheDocument();
  });

  it("free credit: the server's refusal is shown in the panel", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi(clientPageRoutes());
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    await user.click(
      await screen.findByRole('button', { name: /^Balance EUR 0\.00/ }),
    );
    server.use(
      http.post('/api/admin/clients/:id/balances/:balanceId/freecredit', () =>
        HttpResponse.json(
          { statusCode: 400, error: 'Bad Request', message: 'Amount too big' },
          { status: 400 },
        ),
      ),
    );
    const panel = screen.getByRole('dialog', { name: 'Free Credit' });
    await user.type(within(panel).getByLabelText('Amount'), '5');
    await user.click(
      within(panel).getByRole('button', { name: 'Give Free Credit' }),
    );
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', {
        name: 'OK',
      }),
    );
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'Amount too big',
    );
  });

  it('New Route Split defaults to weight 10 and checks the weight before sending', async () => {
    const { requests } = mockApi({
      ...clientPageRoutes([]),
      'POST /api/admin/routes/split': { status: 201, body: splitA },
    });
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    expect(
      await screen.findByText('This client has no route splits.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New Route Split' }));
    const panel = screen.getByRole('dialog', { name: 'New Route Split' });
    const weight = within(panel).getByLabelText('Weight');
    expect(weight).toHaveValue(10);
    expect(
      within(panel)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['VONAGE_SMS', 'MELROSE_SMPP', 'WORLD_SPECIAL']);

    await user.clear(weight);
    await user.type(weight, '2.5');
    await user.click(within(panel).getByRole('button', { name: 'Create' }));
    expect(
      await within(panel).findByText('Weight must be an integer'),
    ).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await user.clear(weight);
    await user.type(weight, '10');
    await user.selectOptions(
      within(panel).getByLabelText('Delivery Method'),
      'WORLD_SPECIAL',
    );
    await user.click(within(panel).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
        userId: client.userId,
        clientId: client.id,
        deliveryMethod: 'WORLD_SPECIAL',
        weight: 10,
      }),
    );
  });

  it('a split opens to edit; Delete asks first and deletes that split by id', async () => {
    const { requests } = mockApi({
      ...clientPageRoutes(),
      [`DELETE /api/admin/routes/split/${splitB.id}`]: { status: 204 },
    });
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    await user.click(
      await screen.findByRole('button', {
        name: 'MELROSE_SMPP, weight 30: edit or delete',
      }),
    );
    const panel = screen.getByRole('dialog', { name: 'Route Split' });
    expect(within(panel).getByLabelText('Weight')).toHaveValue(30);
    await user.click(within(panel).getByRole('button', { name: 'Delete' }));
    const question = screen.getByRole('alertdialog', {
      name: 'Are you sure you want to delete the route split?',
    });
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);

    await user.click(within(panel).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(
        screen.getByRole('alertdialog', {
          name: 'Are you sure you want to delete the route split?',
        }),
      ).getByRole('button', { name: 'OK' }),
    );
    await waitFor(() =>
      expect(
        requests.filter((r) => r.method === 'DELETE').map((r) => r.path),
      ).toEqual([`/api/admin/routes/split/${splitB.id}`]),
    );
  });
});

describe('Admin clients table', () => {
  it('pages 30 at a time with the offset in the URL', async () => {
    const clients = Array.from({ length: 30 }, (_, i) =>
      makeClient({
        id: `55555555-5555-4555-8555-${String(i).padStart(12, '0')}`,
        name: `Client ${i}`,
      }),
    );
    const { requests } = mockApi({
      'GET /api/users/me': {
        body: makeUser({ roles: ['ROLE_CLIENT_LIST', 'ROLE_USER_VIEW'] }),
      },
      'GET /api/admin/clients': (request) => ({
        body: {
          clients: request.search.includes('offset=30')
            ? clients.slice(0, 5)
            : clients,
          total: 35,
          count: 30,
          offset: request.search.includes('offset=30') ? 30 : 0,
        },
      }),
    });
    const { user } = renderApp('/admin/clients', { loggedIn: true });
    expect(await screen.findByText('1–30 of 35')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Previous' })).toBeNull();
    const userLink = screen.getAllByRole('link', {
      name: client.userId,
    })[0];
    expect(userLink).toHaveAttribute('href', `#/admin/users/${client.userId}`);
    await user.click(screen.getByRole('link', { name: 'Next' }));
    expect(await screen.findByText('31–35 of 35')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Next' })).toBeNull();
    expect(requests.at(-1)?.search).toBe('?count=30&offset=30');
  });
});
