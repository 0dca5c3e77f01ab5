import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setAuthNotice } from '../../../lib/auth-notice';
import { getCredentials } from '../../../lib/credentials';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { heldRoute, mockApi } from '../../../testing/mock-api';
import { makeUser } from '../../../testing/test-data';

describe('Login screen', () => {
  it("shows 'Login to' plus the product name, labelled fields and both buttons", async () => {
    renderApp('/login');
    expect(
      await screen.findByRole('heading', { name: 'Login to Skyline Console' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute(
      'type',
      'password',
    );
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByText('Powered by')).toHaveTextContent(
      'Powered by Skyline Telecom',
    );
  });

  it('stores the credentials and goes to / without checking them first', async () => {
    const { requests } = mockApi(shellRoutes());
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.test');
    await user.type(screen.getByLabelText('Password'), 'password-123');
    expect(requests).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(getCredentials()).toEqual({
      email: 'ada@example.test',
      password: 'password-123',
    });
    // The index of / goes to /billing, then /billing/balance.
    expect(
      await screen.findByRole('heading', { name: 'Balance' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/billing/balance');
  });

  it("'Register new user' goes to /register", async () => {
    const { user } = renderApp('/login');
    await user.click(
      await screen.findByRole('button', { name: 'Register new user' }),
    );
    expect(
      await screen.findByRole('heading', {
        name: 'Register on Skyline Console',
      }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/register');
  });

  it('says why the user is back here, in an alert, until the next login', async () => {
    setAuthNotice({
      tone: 'error',
      text: 'Your e-mail or password was not accepted. Please log in again.',
    });
    mockApi(shellRoutes());
    const { user } = renderApp('/login');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your e-mail or password was not accepted. Please log in again.',
    );
    await user.type(screen.getByLabelText('Email'), 'ada@example.test');
    await user.type(screen.getByLabelText('Password'), 'password-123');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("drops the previous user's data: the next user never sees it", async () => {
    const grace = heldRoute({ body: makeUser({ firstName: 'Grace' }) });
    mockApi({
      ...shellRoutes(),
      'GET /api/users/me': (request) =>
        request.headers.get('Authorization')?.startsWith('Basic Z3JhY2')
          ? grace.route()
          : { body: makeUser() },
    });
    const { router, user } = renderApp('/billing/balance', {
      loggedIn: true,
    });
    expect(
      await screen.findByRole('button', { name: 'Hello Ada' }),
    ).toBeInTheDocument();

    await router.navigate('/login');
    await user.type(
      await screen.findByLabelText('Email'),
      'grace@example.test',
    );
    await user.type(screen.getByLabelText('Password'), 'password-456');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    // The shell is up (its navbar shows) while Grace's answer is held: Ada's name, still
    // in the cache but for the drop, must not show.
    const navbar = await screen.findByRole('banner');
    expect(
      within(navbar).getByRole('link', { name: 'Skyline Console' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Hello Ada' })).toBeNull();
    grace.release();
    expect(
      await screen.findByRole('button', { name: 'Hello Grace' }),
    ).toBeInTheDocument();
  });
});
