import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { getCredentials } from '../../lib/credentials';
import { server } from '../../testing/msw-server';
import { currentPath, renderApp } from '../../testing/render-app';
import { shellRoutes } from '../../testing/shell-stubs';
import { heldRoute, mockApi } from '../../testing/mock-api';
import { makeUser } from '../../testing/test-data';

describe('customer shell', () => {
  it("shows the product label, 'Hello' plus the first name and the footer", async () => {
    mockApi(shellRoutes());
    renderApp('/billing/balance', { loggedIn: true });
    const navbar = await screen.findByRole('banner');
    expect(
      await within(navbar).findByRole('button', { name: 'Hello Ada' }),
    ).toBeInTheDocument();
    expect(
      within(navbar).getByRole('link', { name: 'Skyline Console' }),
    ).toHaveAttribute('href', '#/');
    expect(screen.getByRole('contentinfo')).toHaveTextContent(
      'Powered by Skyline Telecom',
    );
  });

  it("says 'Hello user' when the user has no first name", async () => {
    mockApi(shellRoutes({ user: makeUser({ firstName: '' }) }));
    renderApp('/billing/balance', { loggedIn: true });
    expect(
      await screen.findByRole('button', { name: 'Hello user' }),
    ).toBeInTheDocument();
  });

  it('asks before logging out; Cancel keeps the user in, OK clears the credentials', async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    const menuButton = await screen.findByRole('button', { name: 'Hello Ada' });

    await user.click(menuButton);
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    const dialog = screen.getByRole('alertdialog', {
      name: 'Are you sure you want to logout?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(getCredentials()).not.toBeNull();
    expect(currentPath()).toBe('/billing/balance');

    await user.click(menuButton);
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', {
        name: 'OK',
      }),
    );
    expect(
      await screen.findByRole('heading', { name: 'Login to Skyline Console' }),
    ).toBeInTheDocument();
    expect(getCredentials()).toBeNull();
  });

  it('Escape closes the logout question and focus returns to the page', async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    const menuButton = await screen.findByRole('button', { name: 'Hello Ada' });
    await user.click(menuButton);
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    expect(screen.getByRole('button', { name: 'OK' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(menuButton).toHaveFocus();
  });

  it('a refused credential (401) on load goes back to /login with the reason', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(
      http.get('/api/users/me', () =>
        HttpResponse.json({ message: 'Invalid credentials' }, { status: 401 }),
      ),
      http.get('/api/clients', () =>
        HttpResponse.json({ message: 'Invalid credentials' }, { status: 401 }),
      ),
    );
    renderApp('/billing/balance', { loggedIn: true });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your e-mail or password was not accepted. Please log in again.',
    );
    expect(currentPath()).toBe('/login');
    expect(getCredentials()).toBeNull();
  });

  it('a network error while loading the user goes to /login', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(
      http.get('/api/users/me', () => HttpResponse.error()),
      http.get('/api/clients', () => HttpResponse.error()),
    );
    renderApp('/billing/balance', { loggedIn: true });
    expect(
      await screen.findByRole('heading', { name: 'Login to Skyline Console' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The server could not be reached. Please log in again.',
    );
  });

  it('a user who went elsewhere while the clients load is not sent to Quick Start', async () => {
    const clients = heldRoute({
      body: { clients: [], total: 0, count: 30, offset: 0 },
    });
    mockApi({
      ...shellRoutes({ clients: [] }),
      'GET /api/clients': clients.route,
    });
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.click(
      within(await screen.findByRole('navigation', { name: 'Main' })).getByRole(
        'link',
        { name: 'Messaging' },
      ),
    );
    await waitFor(() => expect(currentPath()).toBe('/messaging/sms'));

    clients.release();
    expect(
      await screen.findByRole('combobox', { name: 'Client' }),
    ).toBeDisabled();
    // The move to Quick Start would come once its screen has loaded: give it time to.
    await expect(
      waitFor(() => expect(currentPath()).toBe('/quickstart'), {
        timeout: 500,
      }),
    ).rejects.toThrow();
    expect(currentPath()).toBe('/messaging/sms');
  });

  it('the drawer opened while the shell loads stays open across its move to Quick Start', async () => {
    const clients = heldRoute({
      body: { clients: [], total: 0, count: 30, offset: 0 },
    });
    mockApi({
      ...shellRoutes({ clients: [] }),
      'GET /api/clients': clients.route,
    });
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    const menu = await screen.findByRole('button', { name: 'Menu' });
    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');

    clients.release();
    await waitFor(() => expect(currentPath()).toBe('/quickstart'));
    expect(menu).toHaveAttribute('aria-expanded', 'true');

    // Going somewhere by choice still closes it.
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole(
        'link',
        { name: 'Messaging' },
      ),
    );
    await waitFor(() => expect(currentPath()).toBe('/messaging/sms'));
    // The location changes a render before the shell sees it.
    await waitFor(() => expect(menu).toHaveAttribute('aria-expanded', 'false'));
  });
});
