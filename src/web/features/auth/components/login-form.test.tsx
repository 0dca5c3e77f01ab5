import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setAuthNotice } from '../../../lib/auth-notice';
import { getCredentials } from '../../../lib/credentials';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { mockApi } from '../../../testing/mock-api';

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
});
