import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { heldRoute, mockApi, type Route } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeBalance, makeClient, makeUser } from '../../../testing/test-data';
import type { PhoneNumber } from '../../../../shared/schemas/numbers';

const client = makeClient({ name: 'Web shop' });
const held: PhoneNumber[] = [
  {
    number: '447700900123',
    clientId: client.id,
    helpText: 'Web shop: reply STOP to end',
    dateCreated: '2026-11-20T10:00:00.000Z',
  },
  {
    number: '60123',
    clientId: client.id,
    helpText: null,
    dateCreated: '2026-11-21T10:00:00.000Z',
  },
];

describe("The client's numbers", () => {
  it("are listed on the owner's client page with their help text", async () => {
    mockApi({
      ...shellRoutes({ clients: [client] }),
      [`GET /api/clients/${client.id}`]: { body: client },
      [`GET /api/clients/${client.id}/numbers`]: { body: { numbers: held } },
    });
    renderApp(`/clients/${client.id}`, { loggedIn: true });
    const card = await screen.findByRole('region', { name: 'Numbers' });
    const list = await within(card).findByRole('list', { name: 'Numbers' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(
      '+447700900123Help text: Web shop: reply STOP to end',
    );
    expect(items[1]).toHaveTextContent('60123Default help text');
  });

  it('say where numbers come from when the client holds none, after grey lines while loading', async () => {
    const answer = heldRoute({ body: { numbers: [] } });
    mockApi({
      ...shellRoutes({ clients: [client] }),
      [`GET /api/clients/${client.id}`]: { body: client },
      [`GET /api/clients/${client.id}/numbers`]: answer.route,
    });
    renderApp(`/clients/${client.id}`, { loggedIn: true });
    const card = await screen.findByRole('region', { name: 'Numbers' });
    expect(within(card).getByText('Loading the numbers')).toBeInTheDocument();
    answer.release();
    expect(
      await within(card).findByText(
        'This client holds no numbers yet. Numbers are assigned by the provider; messages sent to them appear in your Inbox.',
      ),
    ).toBeVisible();
  });

  function adminRoutes(roles: string[]): Record<string, Route> {
    return {
      'GET /api/users/me': { body: makeUser({ roles }) },
      [`GET /api/admin/clients/${client.id}`]: { body: client },
      [`GET /api/admin/clients/${client.id}/balances/default`]: {
        body: makeBalance({ id: client.id }),
      },
      [`GET /api/admin/clients/${client.id}/messages`]: {
        body: { messages: [], total: 0, count: 0, offset: 0 },
      },
      [`GET /api/admin/clients/${client.id}/numbers`]: {
        body: { numbers: held },
      },
    };
  }

  it('are on the admin client page, with a link to manage them for ROLE_NUMBER_ADMIN', async () => {
    mockApi(adminRoutes(['ROLE_CLIENT_VIEW', 'ROLE_NUMBER_ADMIN']));
    renderApp(`/admin/clients/${client.id}`, { loggedIn: true });
    const card = await screen.findByRole('region', { name: 'Numbers' });
    expect(await within(card).findByText('+447700900123')).toBeVisible();
    expect(
      within(card).getByRole('link', { name: 'Manage numbers' }),
    ).toHaveAttribute('href', `#/admin/numbers?clientId=${client.id}`);
  });

  it('are on the admin client page without the link for staff who cannot assign numbers', async () => {
    mockApi(adminRoutes(['ROLE_CLIENT_VIEW']));
    renderApp(`/admin/clients/${client.id}`, { loggedIn: true });
    const card = await screen.findByRole('region', { name: 'Numbers' });
    expect(await within(card).findByText('60123')).toBeVisible();
    expect(within(card).queryByRole('link')).toBeNull();
  });
});
