import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentPath, renderApp } from '../testing/render-app';
import { shellRoutes } from '../testing/shell-stubs';
import { mockApi } from '../testing/mock-api';

describe('the customer shell guard', () => {
  it('sends a logged-out user to /login', async () => {
    const { requests } = mockApi({});
    renderApp('/clients');
    expect(
      await screen.findByRole('heading', { name: 'Login to Skyline Console' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
    expect(requests).toEqual([]);
  });

  it('needs both the e-mail and the password', async () => {
    window.localStorage.setItem('email', 'ada@example.test');
    window.localStorage.setItem('password', '');
    renderApp('/billing/balance');
    expect(
      await screen.findByRole('heading', { name: 'Login to Skyline Console' }),
    ).toBeInTheDocument();
  });

  it('lets a logged-in user in; the index goes to /billing/balance', async () => {
    mockApi(shellRoutes());
    renderApp('/', { loggedIn: true });
    expect(
      await screen.findByRole('heading', { name: 'Balance' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/billing/balance');
  });
});

describe('Page Not Found', () => {
  it('shows for an unknown route inside the shell', async () => {
    mockApi(shellRoutes());
    renderApp('/no/such/page', { loggedIn: true });
    expect(
      await screen.findByRole('heading', { name: 'Page Not Found' }),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('banner')).getByRole('link', {
        name: 'Skyline Console',
      }),
    ).toBeInTheDocument();
  });
});
