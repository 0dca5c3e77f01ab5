import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../lib/format';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { makeBalance, makeClient, makeUser } from '../../../testing/test-data';

const client = makeClient({ name: 'Web shop' });

function serveClient(secretLastUsedAt: string | null) {
  mockApi({
    'GET /api/users/me': { body: makeUser({ roles: ['ROLE_CLIENT_ADMIN'] }) },
    [`GET /api/admin/clients/${client.id}`]: {
      body: { ...client, secretLastUsedAt },
    },
    [`GET /api/admin/clients/${client.id}/balances/default`]: {
      body: makeBalance({ id: client.id }),
    },
    'GET /api/admin/routes/split': {
      body: { routes: [], total: 0, count: 300, offset: 0 },
    },
    [`GET /api/admin/clients/${client.id}/messages`]: {
      body: { messages: [], total: 0, count: 30, offset: 0 },
    },
  });
}

describe('admin client card', () => {
  it("shows staff when the client's secret was last used", async () => {
    const usedAt = '2026-11-23T08:15:00.000Z';
    serveClient(usedAt);
    renderApp(`/admin/clients/${client.id}`, { loggedIn: true });
    expect(
      await screen.findByRole('button', { name: 'Client Web shop: edit' }),
    ).toHaveTextContent(`Secret last used${formatDateTime(usedAt)}`);
  });

  it("says 'Never' while it has not been used", async () => {
    serveClient(null);
    renderApp(`/admin/clients/${client.id}`, { loggedIn: true });
    expect(
      await screen.findByRole('button', { name: 'Client Web shop: edit' }),
    ).toHaveTextContent('Secret last usedNever');
  });
});
