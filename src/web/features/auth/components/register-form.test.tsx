import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server';
import { currentPath, renderApp } from '../../../testing/render-app';
import { mockApi } from '../../../testing/mock-api';
import { makeUser } from '../../../testing/test-data';

async function fillForm(user: UserEvent, confirm = 'password-123') {
  await user.type(await screen.findByLabelText('Email'), 'grace@example.test');
  await user.type(screen.getByLabelText('Password'), 'password-123');
  await user.type(screen.getByLabelText('Confirm Password'), confirm);
  await user.type(screen.getByLabelText('First Name'), 'Grace');
  await user.type(screen.getByLabelText('Last Name'), 'Hopper');
  await user.type(screen.getByLabelText('Organization (optional)'), 'Navy');
}

describe('Register screen', () => {
  it("shows 'Register on' plus the product name and every field", async () => {
    renderApp('/register');
    expect(
      await screen.findByRole('heading', {
        name: 'Register on Skyline Console',
      }),
    ).toBeInTheDocument();
    for (const label of [
      'Email',
      'Password',
      'Confirm Password',
      'First Name',
      'Last Name',
      'Organization (optional)',
    ]) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(
      screen.getByRole('button', { name: 'Register' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Go to Login' }),
    ).toBeInTheDocument();
  });

  it("alerts 'Passwords do not match.' and sends nothing", async () => {
    const { requests } = mockApi({});
    const { user } = renderApp('/register');
    await fillForm(user, 'password-124');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Passwords do not match.',
    );
    expect(requests).toEqual([]);
    expect(currentPath()).toBe('/register');
  });

  it('sends the payload without the confirmation, then goes to /login', async () => {
    const { requests } = mockApi({
      'POST /api/register': { status: 201, body: makeUser() },
    });
    const { user } = renderApp('/register');
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(
      await screen.findByRole('heading', { name: 'Login to Skyline Console' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.get('authorization')).toBeNull();
    expect(requests[0]?.body).toEqual({
      email: 'grace@example.test',
      password: 'password-123',
      firstName: 'Grace',
      lastName: 'Hopper',
      organization: 'Navy',
    });
    expect(screen.getByRole('status')).toHaveTextContent(
      'Registration complete. Please log in.',
    );
  });

  it('goes to /login when registration fails too, and says why', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(
      http.post('/api/register', () =>
        HttpResponse.json(
          {
            statusCode: 409,
            error: 'Conflict',
            message: 'This email is already registered',
          },
          { status: 409 },
        ),
      ),
    );
    const { user } = renderApp('/register');
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(
      await screen.findByRole('heading', { name: 'Login to Skyline Console' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Registration failed: This email is already registered',
    );
  });

  it("'Go to Login' goes to /login", async () => {
    const { user } = renderApp('/register');
    await user.click(
      await screen.findByRole('button', { name: 'Go to Login' }),
    );
    expect(
      await screen.findByRole('heading', { name: 'Login to Skyline Console' }),
    ).toBeInTheDocument();
  });
});
