import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { heldRoute, mockApi } from '../../../testing/mock-api';
import { makeBalance, makeClient } from '../../../testing/test-data';
import { queryKeys } from '../../../lib/query-keys';

const first = makeClient();
const second = makeClient({
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Second client',
});

async function widget() {
  return within(await screen.findByRole('region', { name: 'Balance' }));
}

describe('balance widget', () => {
  it('shows a loading image, then the currency and the amount with 2 decimals', async () => {
    const balanceAnswer = heldRoute({
      body: makeBalance({ amount: 12.5, currency: 'EUR' }),
    });
    mockApi({
      ...shellRoutes(),
      [`GET /api/clients/${first.id}/balances/default`]: balanceAnswer.route,
    });
    renderApp('/billing/balance', { loggedIn: true });
    const balance = await widget();
    expect(
      await balance.findByRole('img', { name: 'Loading balance' }),
    ).toBeInTheDocument();
    balanceAnswer.release();
    expect(await balance.findByText('EUR 12.50')).toBeInTheDocument();
  });

  it("says 'No balance' when the user has no client", async () => {
    mockApi(shellRoutes({ clients: [] }));
    renderApp('/billing/balance', { loggedIn: true });
    expect(await (await widget()).findByText('No balance')).toBeInTheDocument();
  });

  it("says 'No balance' when the client has none (404)", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { [`GET /api/clients/${first.id}/balances/default`]: _, ...routes } =
      shellRoutes();
    mockApi(routes);
    server.use(
      http.get(`/api/clients/${first.id}/balances/default`, () =>
        HttpResponse.json({ message: 'Balance not found' }, { status: 404 }),
      ),
    );
    renderApp('/billing/balance', { loggedIn: true });
    const balance = await widget();
    expect(await balance.findByText('No balance')).toBeInTheDocument();
    expect(balance.queryByRole('img', { name: 'Loading balance' })).toBeNull();
  });

  it('reloads when the current client changes', async () => {
    const { requests } = mockApi({
      ...shellRoutes({ clients: [first, second] }),
      [`GET /api/clients/${second.id}/balances/default`]: {
        body: makeBalance({ id: second.id, amount: 3, currency: 'USD' }),
      },
    });
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    const balance = await widget();
    expect(await balance.findByText('EUR 12.50')).toBeInTheDocument();
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Client' }),
      'Second client',
    );
    expect(await balance.findByText('USD 3.00')).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toContain(
      `/api/clients/${second.id}/balances/default`,
    );
  });

  it("'Top Up' shows 'Please contact us for top ups'", async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/quickstart', { loggedIn: true });
    await user.click((await widget()).getByRole('button', { name: 'Top Up' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Please contact us for top ups',
    );
  });

  it("'View Details' opens the Billing entry and goes to /billing", async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/quickstart', { loggedIn: true });
    await user.click(
      (await widget()).getByRole('button', { name: 'View Details' }),
    );
    expect(
      await screen.findByRole('heading', { name: 'Balance' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/billing/balance');
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(nav.getByRole('button', { name: 'Billing' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(nav.getByRole('link', { name: 'Balance' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('keeps the last amount when a reload fails (spec §8)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi(shellRoutes());
    const { queryClient } = renderApp('/quickstart', { loggedIn: true });
    const balance = await widget();
    expect(await balance.findByText('EUR 12.50')).toBeInTheDocument();
    vi.restoreAllMocks();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(
      http.get(`/api/clients/${first.id}/balances/default`, () =>
        HttpResponse.json({ message: 'boom' }, { status: 500 }),
      ),
    );
    await queryClient.refetchQueries({ queryKey: queryKeys.balances.all });
    expect(balance.getByText('EUR 12.50')).toBeInTheDocument();
  });
});
