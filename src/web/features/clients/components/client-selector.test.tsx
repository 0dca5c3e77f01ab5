import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { mockApi } from '../../../testing/mock-api';
import { makeClient } from '../../../testing/test-data';

const first = makeClient({ name: 'First' });
const second = makeClient({
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Second',
});

describe('client selector', () => {
  it("is disabled and shows 'No client' when the user has none; the shell goes to /quickstart", async () => {
    const { requests } = mockApi(shellRoutes({ clients: [] }));
    renderApp('/billing/balance', { loggedIn: true });
    expect(
      await screen.findByRole('heading', { name: 'Quick Start' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/quickstart');
    const selector = screen.getByRole('combobox', { name: 'Client' });
    expect(selector).toBeDisabled();
    expect(selector).toHaveDisplayValue('No client');
    expect(requests.find((r) => r.path === '/api/clients')?.search).toBe(
      '?count=30&offset=0',
    );
  });

  it('picks the first client when nothing is saved', async () => {
    mockApi(shellRoutes({ clients: [first, second] }));
    renderApp('/billing/balance', { loggedIn: true });
    expect(
      await screen.findByRole('combobox', { name: 'Client' }),
    ).toHaveDisplayValue('First');
  });

  it('restores the saved client when it is still in the list, else the first', async () => {
    window.localStorage.setItem('clientId', second.id);
    mockApi(shellRoutes({ clients: [first, second] }));
    renderApp('/billing/balance', { loggedIn: true });
    expect(
      await screen.findByRole('combobox', { name: 'Client' }),
    ).toHaveDisplayValue('Second');
  });

  it('falls back to the first client when the saved one is gone', async () => {
    window.localStorage.setItem('clientId', 'deleted-client');
    mockApi(shellRoutes({ clients: [first, second] }));
    renderApp('/billing/balance', { loggedIn: true });
    expect(
      await screen.findByRole('combobox', { name: 'Client' }),
    ).toHaveDisplayValue('First');
  });

  it('saves the chosen client under clientId', async () => {
    mockApi(shellRoutes({ clients: [first, second] }));
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Client' }),
      'Second',
    );
    expect(window.localStorage.getItem('clientId')).toBe(second.id);
  });
});
