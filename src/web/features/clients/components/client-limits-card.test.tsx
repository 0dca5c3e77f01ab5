import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeBalance, makeClient, makeUser } from '../../../testing/test-data';
import { LIMITS_SAVED } from './client-limits-card';

const client = makeClient({ name: 'Web shop' });
const limited = {
  ...client,
  allowedPrefixes: ['44', '353'],
  maxMessagesPerSecond: 5,
};
const open = { ...client, allowedPrefixes: null, maxMessagesPerSecond: null };

function adminRoutes(shown: object, roles: string[]) {
  return {
    'GET /api/users/me': { body: makeUser({ roles }) },
    [`GET /api/admin/clients/${client.id}`]: { body: shown },
    [`GET /api/admin/clients/${client.id}/balances/default`]: {
      body: makeBalance({ id: client.id }),
    },
    [`GET /api/admin/clients/${client.id}/messages`]: {
      body: { messages: [], total: 0, count: 0, offset: 0 },
    },
  };
}

const card = async () =>
  screen.findByRole('region', { name: 'Destinations and throughput' });

describe('Destinations and throughput', () => {
  it('staff with ROLE_CLIENT_ADMIN see the limits and change them with PUT …/limits', async () => {
    // The server keeps what was saved: the page reloads the client after saving.
    let stored: object = open;
    const { requests } = mockApi({
      ...adminRoutes(open, ['ROLE_CLIENT_ADMIN']),
      [`GET /api/admin/clients/${client.id}`]: () => ({ body: stored }),
      [`PUT /api/admin/clients/${client.id}/limits`]: ({ body }) => {
        stored = { ...open, ...(body as object) };
        return { body: stored };
      },
    });
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    const region = await card();
    expect(region).toHaveTextContent(
      'Allowed destinationsAll open destinations',
    );
    expect(region).toHaveTextContent('ThroughputNo limit');
    await user.click(
      within(region).getByRole('button', { name: 'Edit Limits' }),
    );
    expect(within(region).getByLabelText('Allowed prefixes')).toHaveFocus();
    await user.type(
      within(region).getByLabelText('Allowed prefixes'),
      '44, 35x',
    );
    await user.type(
      within(region).getByLabelText('Max messages per second'),
      '0',
    );
    await user.click(
      within(region).getByRole('button', { name: 'Save Limits' }),
    );
    expect(
      within(region).getByLabelText('Allowed prefixes'),
    ).toHaveAccessibleDescription(/Prefix must be 1 to 15 digits/);
    expect(
      within(region).getByLabelText('Max messages per second'),
    ).toHaveAccessibleDescription('Max messages per second must be at least 1');
    await user.clear(within(region).getByLabelText('Allowed prefixes'));
    await user.type(
      within(region).getByLabelText('Allowed prefixes'),
      '44 353,',
    );
    await user.clear(within(region).getByLabelText('Max messages per second'));
    await user.type(
      within(region).getByLabelText('Max messages per second'),
      '5',
    );
    await user.click(
      within(region).getByRole('button', { name: 'Save Limits' }),
    );
    expect(await screen.findByText(LIMITS_SAVED)).toBeInTheDocument();
    const put = requests.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({
      allowedPrefixes: ['44', '353'],
      maxMessagesPerSecond: 5,
    });
    expect(await card()).toHaveTextContent('Allowed destinations44, 353');
    expect(await card()).toHaveTextContent('Throughput5 messages a second');
  });

  it('empty fields clear both limits (null)', async () => {
    const { requests } = mockApi({
      ...adminRoutes(limited, ['ROLE_CLIENT_ADMIN']),
      [`PUT /api/admin/clients/${client.id}/limits`]: { body: open },
    });
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    const region = await card();
    await user.click(
      within(region).getByRole('button', { name: 'Edit Limits' }),
    );
    expect(within(region).getByLabelText('Allowed prefixes')).toHaveValue(
      '44, 353',
    );
    await user.clear(within(region).getByLabelText('Allowed prefixes'));
    await user.clear(within(region).getByLabelText('Max messages per second'));
    await user.click(
      within(region).getByRole('button', { name: 'Save Limits' }),
    );
    expect(await screen.findByText(LIMITS_SAVED)).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      allowedPrefixes: null,
      maxMessagesPerSecond: null,
    });
  });

  it('staff without ROLE_CLIENT_ADMIN read them and are told why they cannot change them', async () => {
    mockApi(adminRoutes(limited, ['ROLE_CLIENT_VIEW', 'ROLE_CLIENT_UPDATE']));
    renderApp(`/admin/clients/${client.id}`, { loggedIn: true });
    const region = await card();
    expect(region).toHaveTextContent('Allowed destinations44, 353');
    expect(
      within(region).queryByRole('button', { name: 'Edit Limits' }),
    ).toBeNull();
    expect(region).toHaveTextContent('Needs ROLE_CLIENT_ADMIN to change them.');
  });

  it("the owner reads them on the client's page, with nothing to edit", async () => {
    mockApi({
      ...shellRoutes({ clients: [client] }),
      [`GET /api/clients/${client.id}`]: { body: limited },
    });
    renderApp(`/clients/${client.id}`, { loggedIn: true });
    const region = await card();
    expect(region).toHaveTextContent('Allowed destinations44, 353');
    expect(region).toHaveTextContent('Throughput5 messages a second');
    expect(within(region).queryByRole('button')).toBeNull();
  });
});
