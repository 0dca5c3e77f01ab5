import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { makeBalance, makeClient, makeUser } from '../../../testing/test-data';

const client = makeClient({ name: 'Web shop' });
const messagesPath = `/api/admin/clients/${client.id}/messages`;

function adminRoutes(
  roles: string[],
  waiting: () => Partial<Record<string, number>>,
) {
  return {
    'GET /api/users/me': { body: makeUser({ roles }) },
    [`GET /api/admin/clients/${client.id}`]: { body: client },
    [`GET /api/admin/clients/${client.id}/balances/default`]: {
      body: makeBalance({ id: client.id }),
    },
    [`GET ${messagesPath}`]: ({ search }: { search: string }) => {
      const state = new URLSearchParams(search).get('state') ?? '';
      const total = waiting()[state] ?? 0;
      return { body: { messages: [], total, count: 0, offset: 0 } };
    },
  };
}

const card = async () => screen.findByRole('region', { name: 'Traffic' });

describe('Stop traffic (admin client page)', () => {
  it('staff with ROLE_CLIENT_ADMIN stop it after a confirmation naming how many messages wait', async () => {
    let stopped = false;
    const { requests } = mockApi({
      ...adminRoutes(['ROLE_CLIENT_ADMIN'], () =>
        stopped ? {} : { SCHEDULED: 2, ACCEPTED: 5 },
      ),
      [`POST ${messagesPath}/cancel`]: () => {
        stopped = true;
        return { body: { canceled: 7 } };
      },
    });
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    const region = await card();
    await waitFor(() => expect(region).toHaveTextContent('7 messages waiting'));
    await user.click(
      within(region).getByRole('button', { name: 'Stop traffic' }),
    );
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Cancel the 7 messages of this client not yet sent? Each one canceled is refunded; one being handed to a provider right now still goes out.',
    });
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(
      await screen.findByText('7 messages canceled and refunded'),
    ).toBeInTheDocument();
    await waitFor(() => expect(region).toHaveTextContent('0 messages waiting'));
    expect(
      requests.filter((r) => r.method === 'POST').map((r) => r.path),
    ).toEqual([`${messagesPath}/cancel`]);
  });

  it('staff without ROLE_CLIENT_ADMIN see the count and no button', async () => {
    mockApi(adminRoutes(['ROLE_CLIENT_VIEW'], () => ({ ACCEPTED: 1 })));
    renderApp(`/admin/clients/${client.id}`, { loggedIn: true });
    const region = await card();
    await waitFor(() => expect(region).toHaveTextContent('1 message waiting'));
    expect(
      within(region).queryByRole('button', { name: 'Stop traffic' }),
    ).not.toBeInTheDocument();
    expect(region).toHaveTextContent('ROLE_CLIENT_ADMIN');
  });
});
