import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { getCredentials } from '../../../lib/credentials';
import { server } from '../../../testing/msw-server';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { mockApi } from '../../../testing/mock-api';

async function fill(user: UserEvent, next: string, confirm: string) {
  await user.type(
    await screen.findByLabelText('Current Password'),
    'password-123',
  );
  await user.type(screen.getByLabelText('New Password'), next);
  await user.type(screen.getByLabelText('Confirm New Password'), confirm);
}

function failWith(status: number) {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  server.use(
    http.put('/api/users/me/password', () =>
      HttpResponse.json({ statusCode: status, message: 'no' }, { status }),
    ),
  );
}

describe('Change Password', () => {
  it('keeps Update Password disabled until the new password and its confirmation are equal', async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/users/me/password', { loggedIn: true });
    const button = await screen.findByRole('button', {
      name: 'Update Password',
    });
    expect(button).toBeDisabled();
    await fill(user, 'new-password-1', 'new-password-2');
    expect(button).toBeDisabled();
    await user.clear(screen.getByLabelText('Confirm New Password'));
    await user.type(
      screen.getByLabelText('Confirm New Password'),
      'new-password-1',
    );
    expect(button).toBeEnabled();
  });

  it('on success says so, logs out and goes to /login', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      'PUT /api/users/me/password': { status: 204 },
    });
    const { user } = renderApp('/users/me/password', { loggedIn: true });
    await fill(user, 'new-password-1', 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(
      await screen.findByRole('heading', { name: 'Login to Skyline Console' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Password changed successfully. Please login again with the new password.',
    );
    expect(getCredentials()).toBeNull();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      currentPassword: 'password-123',
      newPassword: 'new-password-1',
    });
  });

  it("400 alerts 'Invalid new password. Please try again'", async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/users/me/password', { loggedIn: true });
    await fill(user, 'short', 'short');
    failWith(400);
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Invalid new password. Please try again',
    );
    expect(getCredentials()).not.toBeNull();
  });

  it("422 alerts 'Invalid current password. Please try again.'", async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/users/me/password', { loggedIn: true });
    await fill(user, 'new-password-1', 'new-password-1');
    failWith(422);
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Invalid current password. Please try again.',
    );
  });
});
