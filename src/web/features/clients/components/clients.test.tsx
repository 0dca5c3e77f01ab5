import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { mockApi } from '../../../testing/mock-api';
import { makeClient } from '../../../testing/test-data';

const client = makeClient({ name: 'Web shop' });
const created = {
  ...makeClient({
    id: '44444444-4444-4444-8444-444444444444',
    name: 'Billing',
  }),
  secret: 'sEcReT-value-1234567890',
};

describe('My Clients', () => {
  it('lists the clients as cards linking to /clients/{id}', async () => {
    mockApi(shellRoutes({ clients: [client] }));
    renderApp('/clients', { loggedIn: true });
    expect(
      await screen.findByRole('heading', { name: 'My Clients' }),
    ).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Clients' });
    expect(
      within(list).getByRole('link', { name: /Web shop/ }),
    ).toHaveAttribute('href', `#/clients/${client.id}`);
  });

  it('creates a client and shows its secret once, masked as six dots until shown', async () => {
    const { requests } = mockApi({
      ...shellRoutes({ clients: [client] }),
      'POST /api/clients': { status: 201, body: created },
    });
    const { user } = renderApp('/clients', { loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'New Client' }));
    const panel = screen.getByRole('dialog', { name: 'New Client' });
    await user.type(within(panel).getByLabelText('Name'), 'Billing');
    await user.click(
      within(panel).getByRole('button', { name: 'Create Client' }),
    );

    const secretPanel = await screen.findByRole('dialog', {
      name: 'Client created',
    });
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Billing',
    });
    const secret = within(secretPanel).getByLabelText('Client secret');
    expect(secret).toHaveValue('••••••');
    expect(within(secretPanel).getByLabelText('Client ID')).toHaveValue(
      created.id,
    );
    await user.click(
      within(secretPanel).getByRole('button', { name: 'Show secret' }),
    );
    expect(secret).toHaveValue(created.secret);
    await user.click(
      within(secretPanel).getByRole('button', { name: 'Hide secret' }),
    );
    expect(secret).toHaveValue('••••••');

    await user.click(
      within(secretPanel).getByRole('button', { name: 'Copy secret' }),
    );
    expect(await navigator.clipboard.readText()).toBe(created.secret);
    expect(within(secretPanel).getByText('Copied')).toBeInTheDocument();

    await user.click(
      within(secretPanel).getByRole('button', { name: 'Close Panel' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the refusal at 30 clients without opening the form', async () => {
    const thirty = Array.from({ length: 30 }, (_, i) =>
      makeClient({
        id: `55555555-5555-4555-8555-${String(i).padStart(12, '0')}`,
        name: `Client ${i}`,
      }),
    );
    mockApi(shellRoutes({ clients: thirty }));
    const { user } = renderApp('/clients', { loggedIn: true });
    await screen.findByRole('list', { name: 'Clients' });
    await user.click(screen.getByRole('button', { name: 'New Client' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'You have reach the maximum allowed number of clients.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the server's refusal (409) in the panel", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi(shellRoutes({ clients: [client] }));
    const { user } = renderApp('/clients', { loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'New Client' }));
    server.use(
      http.post('/api/clients', () =>
        HttpResponse.json(
          {
            statusCode: 409,
            error: 'Conflict',
            message: 'You have reach the maximum allowed number of clients.',
          },
          { status: 409 },
        ),
      ),
    );
    const panel = screen.getByRole('dialog', { name: 'New Client' });
    await user.type(within(panel).getByLabelText('Name'), 'One too many');
    await user.click(
      within(panel).getByRole('button', { name: 'Create Client' }),
    );
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'You have reach the maximum allowed number of clients.',
    );
  });

  it('asks for a name before sending', async () => {
    const { requests } = mockApi(shellRoutes({ clients: [client] }));
    const { user } = renderApp('/clients', { loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'New Client' }));
    const panel = screen.getByRole('dialog', { name: 'New Client' });
    await user.click(
      within(panel).getByRole('button', { name: 'Create Client' }),
    );
    expect(
      await within(panel).findByText('Name is required'),
    ).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });
});

describe('My Client', () => {
  it('renames the client: the card opens the form, Cancel keeps the name, Update saves it', async () => {
    const { requests } = mockApi({
      ...shellRoutes({ clients: [client] }),
      [`GET /api/clients/${client.id}`]: { body: client },
      [`PUT /api/clients/${client.id}`]: ({ body }) => ({
        body: { ...client, ...(body as object) },
      }),
    });
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    expect(
      await screen.findByRole('heading', { name: 'My Client' }),
    ).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: /Web shop/ }));
    const name = screen.getByLabelText('Name');
    expect(name).toHaveFocus();
    await user.clear(name);
    await user.type(name, 'Ignored');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(
      screen.getByRole('button', { name: /Web shop/ }),
    ).toBeInTheDocument();
    // Escape cancels too.
    await user.click(screen.getByRole('button', { name: /Web shop/ }));
    await user.keyboard('{Escape}');
    expect(screen.queryByLabelText('Name')).toBeNull();
    expect(
      screen.getByRole('button', { name: /Web shop/ }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Web shop/ }));
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Web store');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(
      await screen.findByRole('button', { name: /Web store/ }),
    ).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      name: 'Web store',
    });
  });

  it('resets the secret after confirmation and shows the new one once', async () => {
    const { requests } = mockApi({
      ...shellRoutes({ clients: [client] }),
      [`GET /api/clients/${client.id}`]: { body: client },
      [`POST /api/clients/${client.id}/resetSecret`]: {
        body: { ...client, secret: 'brand-new-secret' },
      },
    });
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Reset Secret' }),
    );
    const dialog = screen.getByRole('alertdialog', {
      name: 'Are you sure you want to reset the secret? The existing secret will no longer be usable',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Reset Secret' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', {
        name: 'OK',
      }),
    );
    const panel = await screen.findByRole('dialog', { name: 'New secret' });
    expect(requests.find((r) => r.method === 'POST')?.body).toBeUndefined();
    await user.click(
      within(panel).getByRole('button', { name: 'Show secret' }),
    );
    expect(within(panel).getByLabelText('Client secret')).toHaveValue(
      'brand-new-secret',
    );
  });

  it("deletes after confirmation, says 'The client has been deleted' and goes to /clients", async () => {
    const { requests } = mockApi({
      ...shellRoutes({ clients: [client] }),
      [`GET /api/clients/${client.id}`]: { body: client },
      [`DELETE /api/clients/${client.id}`]: { status: 204 },
    });
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Delete Client' }),
    );
    await user.click(
      within(
        screen.getByRole('alertdialog', {
          name: 'Are you sure you want to permanently delete the client?',
        }),
      ).getByRole('button', { name: 'OK' }),
    );
    expect(
      await screen.findByRole('heading', { name: 'My Clients' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/clients');
    expect(screen.getByRole('status')).toHaveTextContent(
      'The client has been deleted',
    );
    expect(requests.some((r) => r.method === 'DELETE')).toBe(true);
  });
});
