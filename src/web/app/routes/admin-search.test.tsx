import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { User } from '../../../shared/schemas/users';
import { mockApi } from '../../testing/mock-api';
import { currentPath, renderApp } from '../../testing/render-app';
import type { RecordedRequest } from '../../testing/mock-api';
import { makeClient, makeUser } from '../../testing/test-data';

const users: User[] = Array.from({ length: 30 }, (_, i) =>
  makeUser({
    id: `66666666-6666-4666-8666-${String(i).padStart(12, '0')}`,
    email: `ada${i}@example.test`,
  }),
);

function usersRoute({ search }: RecordedRequest) {
  const query = new URLSearchParams(search);
  const offset = Number(query.get('offset'));
  const q = query.get('q');
  const rows = q === 'nobody' ? [] : q ? users.slice(0, 30) : users;
  return {
    body: {
      users: rows.slice(0, offset >= 30 ? 5 : 30),
      total: q ? 35 : 30,
      count: 30,
      offset,
    },
  };
}

const searchOf = (requests: RecordedRequest[], path: string) =>
  requests.filter((r) => r.path === path).map((r) => r.search);

describe('admin search', () => {
  it('Users: typing searches after a pause, keeps q in the URL and in the paging links', async () => {
    const { requests } = mockApi({
      'GET /api/users/me': { body: makeUser({ roles: ['ROLE_USER_ADMIN'] }) },
      'GET /api/admin/users': usersRoute,
    });
    const { user } = renderApp('/admin/users?offset=30', { loggedIn: true });
    const box = await screen.findByRole('searchbox', { name: 'Search users' });
    await screen.findByText('31–35 of 30');

    await user.type(box, 'ADA@ex');
    // One request for the whole word, not one per key.
    await waitFor(() =>
      expect(searchOf(requests, '/api/admin/users').at(-1)).toBe(
        '?count=30&offset=0&q=ADA%40ex',
      ),
    );
    expect(
      searchOf(requests, '/api/admin/users').filter((s) => s.includes('q=')),
    ).toHaveLength(1);
    // A new search starts at the first page; the query is in the URL.
    expect(window.location.hash).toBe('#/admin/users?q=ADA%40ex');
    expect(await screen.findByText('1–30 of 35')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute(
      'href',
      '#/admin/users?q=ADA%40ex&offset=30',
    );

    await user.click(screen.getByRole('link', { name: 'Next' }));
    await waitFor(() =>
      expect(searchOf(requests, '/api/admin/users').at(-1)).toBe(
        '?count=30&offset=30&q=ADA%40ex',
      ),
    );
    expect(box).toHaveValue('ADA@ex');

    await user.clear(box);
    await waitFor(() => expect(currentPath()).toBe('/admin/users'));
    await waitFor(() =>
      expect(searchOf(requests, '/api/admin/users').at(-1)).toBe(
        '?count=30&offset=0',
      ),
    );
    expect(await screen.findByText('1–30 of 30')).toBeInTheDocument();
  });

  it('Users: a link with ?q= opens with the box filled; no match says so', async () => {
    const { requests } = mockApi({
      'GET /api/users/me': { body: makeUser({ roles: ['ROLE_USER_ADMIN'] }) },
      'GET /api/admin/users': usersRoute,
    });
    renderApp('/admin/users?q=nobody', { loggedIn: true });
    expect(
      await screen.findByRole('searchbox', { name: 'Search users' }),
    ).toHaveValue('nobody');
    expect(
      await screen.findByText('No users match “nobody”.'),
    ).toBeInTheDocument();
    expect(searchOf(requests, '/api/admin/users')).toEqual([
      '?count=30&offset=0&q=nobody',
    ]);
  });

  it('Clients: the search box sends q and keeps it in the URL', async () => {
    const client = makeClient({ name: 'Web shop' });
    const { requests } = mockApi({
      'GET /api/users/me': { body: makeUser({ roles: ['ROLE_CLIENT_ADMIN'] }) },
      'GET /api/admin/clients': {
        body: { clients: [client], total: 1, count: 30, offset: 0 },
      },
    });
    const { user } = renderApp('/admin/clients', { loggedIn: true });
    await user.type(
      await screen.findByRole('searchbox', { name: 'Search clients' }),
      'shop',
    );
    await waitFor(() => expect(currentPath()).toBe('/admin/clients?q=shop'));
    await waitFor(() =>
      expect(searchOf(requests, '/api/admin/clients').at(-1)).toBe(
        '?count=30&offset=0&q=shop',
      ),
    );
    expect(
      await screen.findByRole('link', { name: 'Web shop' }),
    ).toBeInTheDocument();
  });
});
