import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { getCredentials } from '../../../lib/credentials';
import { server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { mockApi } from '../../../testing/mock-api';
import { makeUser } from '../../../testing/test-data';

describe('My User', () => {
  it("shows 'Update My User' with the user's values and a read-only User ID", async () => {
    mockApi(shellRoutes());
    renderApp('/users/me', { loggedIn: true });
    expect(
      await screen.findByRole('heading', { name: 'Update My User' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).toHaveValue('Ada');
    expect(screen.getByLabelText('Last Name')).toHaveValue('Lovelace');
    expect(screen.getByLabelText('Organization')).toHaveValue(
      'Analytical Engines',
    );
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.test');
    const id = screen.getByLabelText('User ID');
    expect(id).toHaveValue(makeUser().id);
    expect(id).toHaveAttribute('readonly');
  });

  it('Update sends the four fields and keeps the stored e-mail in step', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      'PUT /api/users/me': ({ body }) => ({
        body: { ...makeUser(), ...(body as object) },
      }),
    });
    const { user } = renderApp('/users/me', { loggedIn: true });
    const first = await screen.findByLabelText('First Name');
    await user.clear(first);
    await user.type(first, 'Augusta');
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'augusta@example.test');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your user has been updated',
    );
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      firstName: 'Augusta',
      lastName: 'Lovelace',
      organization: 'Analytical Engines',
      email: 'augusta@example.test',
    });
    expect(getCredentials()?.email).toBe('augusta@example.test');
  });

  it("shows the server's refusal", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi(shellRoutes());
    const { user } = renderApp('/users/me', { loggedIn: true });
    await screen.findByLabelText('First Name');
    server.use(
      http.put('/api/users/me', () =>
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
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This email is already registered',
    );
    expect(getCredentials()?.email).toBe('ada@example.test');
  });
});
