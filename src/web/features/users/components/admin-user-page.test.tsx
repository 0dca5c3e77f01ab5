import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  OWN_ROLES_REFUSED,
  ROLES,
  UNHELD_ROLE_REFUSED,
} from '../../../../shared/roles';
import { server } from '../../../testing/msw-server';
import { adminUserQueryOptions } from '../api/get-admin-user';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { heldRoute, mockApi, type Route } from '../../../testing/mock-api';
import { makeClient, makeUser } from '../../../testing/test-data';

const { roles: _roles, ...person } = makeUser({
  id: '33333333-3333-4333-8333-333333333333',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.test',
});
const role = (name: string, n: number) => ({
  id: `66666666-6666-4666-8666-${String(n).padStart(12, '0')}`,
  role: name,
});

/**
 * The signed-in staff member: holding ROLE_USERROLE_ADMIN, they may change any role; with
 * ROLE_CLIENT_ADMIN they see the user's clients.
 */
const roleAdmin = makeUser({
  roles: ['ROLE_CLIENT_ADMIN', 'ROLE_USER_ADMIN', 'ROLE_USERROLE_ADMIN'],
});

function userPageRoutes(
  roles = [role('ROLE_SMS_CREATE', 1), role('ROLE_CLIENT_LIST', 2)],
  clients = [makeClient({ userId: person.id, name: 'Shop' })],
  caller = roleAdmin,
): Record<string, Route> {
  return {
    'GET /api/users/me': { body: caller },
    [`GET /api/admin/users/${person.id}`]: { body: person },
    [`GET /api/admin/users/${person.id}/roles`]: { body: { roles } },
    'GET /api/admin/clients': {
      body: { clients, total: clients.length, count: 300, offset: 0 },
    },
  };
}

describe('Admin user page', () => {
  it('a viewer without role or client-create roles sees the user and the clients, and no roles are asked', async () => {
    const viewer = makeUser({
      roles: [
        'ROLE_CLIENT_LIST',
        'ROLE_CLIENT_VIEW',
        'ROLE_USER_LIST',
        'ROLE_USER_VIEW',
      ],
    });
    const { requests } = mockApi(userPageRoutes(undefined, undefined, viewer));
    renderApp(`/admin/users/${person.id}`, { loggedIn: true });
    expect(
      await screen.findByRole('link', { name: 'Shop' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Roles' })).toHaveTextContent(
      'Not available with your roles. Needs ROLE_USERROLE_ADMIN or ROLE_USERROLE_LIST.',
    );
    expect(screen.queryByRole('button', { name: 'New Client' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^User / })).toBeNull();
    expect(
      screen.getByText('Needs ROLE_USER_ADMIN or ROLE_USER_UPDATE'),
    ).toBeInTheDocument();
    expect(requests.some((r) => r.path.endsWith('/roles'))).toBe(false);
  });

  it('without ROLE_CLIENT_LIST the clients are not asked for', async () => {
    const { requests } = mockApi(
      userPageRoutes(
        undefined,
        undefined,
        makeUser({ roles: ['ROLE_USER_VIEW', 'ROLE_USERROLE_LIST'] }),
      ),
    );
    renderApp(`/admin/users/${person.id}`, { loggedIn: true });
    expect(
      await screen.findByRole('list', { name: 'Roles' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Clients' })).toHaveTextContent(
      'Needs ROLE_CLIENT_ADMIN or ROLE_CLIENT_LIST',
    );
    expect(screen.queryByRole('button', { name: 'Add Role' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove / })).toBeNull();
    expect(requests.some((r) => r.path === '/api/admin/clients')).toBe(false);
  });

  it("shows the user, the user's clients (asked 300 at a time) and the roles sorted", async () => {
    const { requests } = mockApi(userPageRoutes());
    renderApp(`/admin/users/${person.id}`, { loggedIn: true });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' }),
    ).toBeInTheDocument();
    const roles = await screen.findByRole('list', { name: 'Roles' });
    expect(
      within(roles)
        .getAllByRole('listitem')
        .map((item) => item.firstChild?.textContent),
    ).toEqual(['ROLE_CLIENT_LIST', 'ROLE_SMS_CREATE']);
    expect(await screen.findByRole('link', { name: 'Shop' })).toHaveAttribute(
      'href',
      `#/admin/clients/${makeClient().id}`,
    );
    const clientsCall = requests.find((r) => r.path === '/api/admin/clients');
    expect(new URLSearchParams(clientsCall?.search).get('userId')).toBe(
      person.id,
    );
    expect(new URLSearchParams(clientsCall?.search).get('count')).toBe('300');
  });

  it('the role editor says Invalid role when empty and sends nothing', async () => {
    const { requests } = mockApi(userPageRoutes());
    const { user } = renderApp(`/admin/users/${person.id}`, {
      loggedIn: true,
    });
    await user.click(await screen.findByRole('button', { name: 'Add Role' }));
    const panel = screen.getByRole('dialog', { name: 'Add Role' });
    await user.type(within(panel).getByLabelText('Role'), '   ');
    await user.click(within(panel).getByRole('button', { name: 'Add Role' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('Invalid role');
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('the role editor offers the catalogue without the roles held, and adds the pick', async () => {
    const { requests } = mockApi({
      ...userPageRoutes(),
      [`POST /api/admin/users/${person.id}/roles/add`]: {
        body: {
          roles: [
            role('ROLE_SMS_CREATE', 1),
            role('ROLE_CLIENT_LIST', 2),
            role('ROLE_ROUTE_VIEW', 3),
          ],
        },
      },
    });
    const { user } = renderApp(`/admin/users/${person.id}`, {
      loggedIn: true,
    });
    await screen.findByRole('list', { name: 'Roles' });
    await user.click(screen.getByRole('button', { name: 'Add Role' }));
    const panel = screen.getByRole('dialog', { name: 'Add Role' });
    const pick = within(panel).getByLabelText('Pick a role');
    const offered = within(pick)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(offered).toContain('ROLE_ROUTE_VIEW');
    expect(offered).not.toContain('ROLE_CLIENT_LIST');
    // The placeholder, then the catalogue less the two roles held.
    expect(offered).toHaveLength(1 + ROLES.length - 2);
    await user.selectOptions(pick, 'ROLE_ROUTE_VIEW');
    expect(within(panel).getByLabelText('Role')).toHaveValue('ROLE_ROUTE_VIEW');
    await user.click(within(panel).getByRole('button', { name: 'Add Role' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      role: 'ROLE_ROUTE_VIEW',
    });
    const roles = screen.getByRole('list', { name: 'Roles' });
    expect(within(roles).getAllByRole('listitem')).toHaveLength(3);
  });

  it("the server's refusal of a typed role is shown in the editor", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi(userPageRoutes());
    const { user } = renderApp(`/admin/users/${person.id}`, {
      loggedIn: true,
    });
    await user.click(await screen.findByRole('button', { name: 'Add Role' }));
    server.use(
      http.post('/api/admin/users/:id/roles/add', () =>
        HttpResponse.json(
          { statusCode: 400, error: 'Bad Request', message: 'Invalid role' },
          { status: 400 },
        ),
      ),
    );
    const panel = screen.getByRole('dialog', { name: 'Add Role' });
    // A catalogue name passes the shared schema, so the refusal is the server's.
    await user.type(within(panel).getByLabelText('Role'), 'ROLE_ROUTE_VIEW');
    await user.click(within(panel).getByRole('button', { name: 'Add Role' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'Invalid role',
    );
  });

  it('a caller without ROLE_USERROLE_ADMIN is offered only the roles they hold, and may remove only those', async () => {
    const caller = makeUser({
      roles: [
        'ROLE_CLIENT_LIST',
        'ROLE_ROUTE_VIEW',
        'ROLE_USERROLE_CREATE',
        'ROLE_USERROLE_DELETE',
        'ROLE_USERROLE_LIST',
        'ROLE_USER_VIEW',
      ],
    });
    const { requests } = mockApi(userPageRoutes(undefined, undefined, caller));
    const { user } = renderApp(`/admin/users/${person.id}`, {
      loggedIn: true,
    });
    // ROLE_CLIENT_LIST is the caller's too; ROLE_SMS_CREATE is not.
    const removable = await screen.findByRole('button', {
      name: 'Remove ROLE_CLIENT_LIST',
    });
    expect(removable).toBeEnabled();
    const locked = screen.getByRole('button', {
      name: 'Remove ROLE_SMS_CREATE',
    });
    expect(locked).toBeDisabled();
    expect(locked).toHaveAccessibleDescription(`${UNHELD_ROLE_REFUSED}.`);
    expect(screen.queryByText(/your own roles/)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Add Role' }));
    const panel = screen.getByRole('dialog', { name: 'Add Role' });
    const offered = within(within(panel).getByLabelText('Pick a role'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    // The placeholder, then the caller's roles less the one the user already holds.
    expect(offered).toEqual([
      'Choose a role…',
      'ROLE_ROUTE_VIEW',
      'ROLE_USERROLE_CREATE',
      'ROLE_USERROLE_DELETE',
      'ROLE_USERROLE_LIST',
      'ROLE_USER_VIEW',
    ]);

    // A typed role the caller lacks is refused in the server's words, and nothing is sent
    // (the server's 403 would log the caller out).
    await user.type(within(panel).getByLabelText('Role'), 'ROLE_PRICING_ADMIN');
    await user.click(within(panel).getByRole('button', { name: 'Add Role' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent(
      UNHELD_ROLE_REFUSED,
    );
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('editing your own roles without ROLE_USERROLE_ADMIN: a note says why, and nothing can be added or removed', async () => {
    const self = makeUser({
      id: person.id,
      roles: [
        'ROLE_CLIENT_LIST',
        'ROLE_SMS_CREATE',
        'ROLE_USERROLE_CREATE',
        'ROLE_USERROLE_DELETE',
        'ROLE_USERROLE_LIST',
        'ROLE_USER_VIEW',
      ],
    });
    mockApi(userPageRoutes(undefined, undefined, self));
    renderApp(`/admin/users/${person.id}`, { loggedIn: true });
    const note = `These are your own roles. ${OWN_ROLES_REFUSED}.`;
    expect(await screen.findByText(note)).toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add Role' });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription(note);
    for (const held of ['ROLE_CLIENT_LIST', 'ROLE_SMS_CREATE']) {
      const remove = await screen.findByRole('button', {
        name: `Remove ${held}`,
      });
      expect(remove).toBeDisabled();
      expect(remove).toHaveAccessibleDescription(note);
    }
  });

  it('a holder of ROLE_USERROLE_ADMIN changes their own roles, any of them', async () => {
    mockApi(
      userPageRoutes(undefined, undefined, {
        ...roleAdmin,
        id: person.id,
      }),
    );
    const { user } = renderApp(`/admin/users/${person.id}`, {
      loggedIn: true,
    });
    // ROLE_SMS_CREATE is held by the user, whom the caller is, but not in the caller's list
    // here: the admin role is enough.
    expect(
      await screen.findByRole('button', { name: 'Remove ROLE_SMS_CREATE' }),
    ).toBeEnabled();
    expect(screen.queryByText(/your own roles/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add Role' }));
    const panel = screen.getByRole('dialog', { name: 'Add Role' });
    expect(
      within(within(panel).getByLabelText('Pick a role')).getAllByRole(
        'option',
      ),
    ).toHaveLength(1 + ROLES.length - 2);
  });

  it('removing a role asks, naming the role and the user; Cancel keeps it', async () => {
    const { requests } = mockApi({
      ...userPageRoutes(),
      [`PUT /api/admin/users/${person.id}/roles/remove`]: {
        body: { roles: [role('ROLE_SMS_CREATE', 1)] },
      },
    });
    const { user } = renderApp(`/admin/users/${person.id}`, {
      loggedIn: true,
    });
    const remove = await screen.findByRole('button', {
      name: 'Remove ROLE_CLIENT_LIST',
    });
    await user.click(remove);
    const text =
      'Are you sure you want to remove the role ROLE_CLIENT_LIST from the user grace@example.test?';
    await user.click(
      within(screen.getByRole('alertdialog', { name: text })).getByRole(
        'button',
        { name: 'Cancel' },
      ),
    );
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
    await user.click(remove);
    await user.click(
      within(screen.getByRole('alertdialog', { name: text })).getByRole(
        'button',
        { name: 'OK' },
      ),
    );
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
        role: 'ROLE_CLIENT_LIST',
      }),
    );
    const roles = screen.getByRole('list', { name: 'Roles' });
    await waitFor(() =>
      expect(within(roles).getAllByRole('listitem')).toHaveLength(1),
    );
  });

  it("the user edit panel shows the server's refusal and keeps the panel open", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi(userPageRoutes());
    const { user } = renderApp(`/admin/users/${person.id}`, {
      loggedIn: true,
    });
    await user.click(
      await screen.findByRole('button', { name: 'User Grace Hopper: edit' }),
    );
    server.use(
      http.put('/api/admin/users/:id', () =>
        HttpResponse.json(
          {
            statusCode: 409,
            error: 'Conflict',
            message: 'This e-mail is already registered',
          },
          { status: 409 },
        ),
      ),
    );
    const panel = screen.getByRole('dialog', { name: 'Edit User' });
    expect(within(panel).getByLabelText('Email')).toHaveValue(
      'grace@example.test',
    );
    await user.clear(within(panel).getByLabelText('Email'));
    await user.type(
      within(panel).getByLabelText('Email'),
      'taken@example.test',
    );
    await user.click(within(panel).getByRole('button', { name: 'Update' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'This e-mail is already registered',
    );
  });

  it('New Client for the user sends the user id to the admin call', async () => {
    const created = {
      ...makeClient({
        id: '77777777-7777-4777-8777-777777777777',
        userId: person.id,
        name: 'For Grace',
      }),
      secret: 'a-secret',
    };
    const { requests } = mockApi({
      ...userPageRoutes(),
      'POST /api/admin/clients': { status: 201, body: created },
    });
    const { user } = renderApp(`/admin/users/${person.id}`, {
      loggedIn: true,
    });
    await screen.findByRole('link', { name: 'Shop' });
    await user.click(screen.getByRole('button', { name: 'New Client' }));
    const panel = screen.getByRole('dialog', { name: 'New Client' });
    await user.type(within(panel).getByLabelText('Name'), 'For Grace');
    await user.click(
      within(panel).getByRole('button', { name: 'Create Client' }),
    );
    expect(
      await screen.findByRole('dialog', { name: 'Client created' }),
    ).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      userId: person.id,
      name: 'For Grace',
    });
  });
});

describe('Moving from one user to another', () => {
  it("never shows the previous user's clients under the next user", async () => {
    const other = { ...person, id: '44444444-4444-4444-8444-444444444444' };
    const otherClients = heldRoute({
      body: { clients: [], total: 0, count: 300, offset: 0 },
    });
    mockApi({
      ...userPageRoutes(),
      [`GET /api/admin/users/${other.id}`]: { body: other },
      [`GET /api/admin/users/${other.id}/roles`]: { body: { roles: [] } },
      'GET /api/admin/clients': (request) =>
        request.search.includes(other.id)
          ? otherClients.route()
          : {
              body: {
                clients: [makeClient({ userId: person.id, name: 'Shop' })],
                total: 1,
                count: 300,
                offset: 0,
              },
            },
    });
    const { router, queryClient } = renderApp(`/admin/users/${person.id}`, {
      loggedIn: true,
    });
    expect(await screen.findByRole('link', { name: 'Shop' })).toBeVisible();
    // The next user is already known, so the page stays mounted while their clients load.
    queryClient.setQueryData(adminUserQueryOptions(other.id).queryKey, other);
    await router.navigate(`/admin/users/${other.id}`);
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'Shop' })).toBeNull(),
    );
    otherClients.release();
    expect(
      await screen.findByText('This user has no clients.'),
    ).toBeInTheDocument();
  });
});

describe('Admin menu entry', () => {
  it('is offered to a user whose roles open the admin area', async () => {
    mockApi({
      ...shellRoutes({
        user: makeUser({ roles: ['ROLE_SMS_CREATE', 'ROLE_CLIENT_LIST'] }),
      }),
      'GET /api/admin/clients': {
        body: { clients: [], total: 0, count: 30, offset: 0 },
      },
    });
    const { user } = renderApp('/clients', { loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Hello Ada' }));
    await user.click(screen.getByRole('menuitem', { name: 'Admin' }));
    expect(
      await screen.findByRole('heading', { name: 'Clients' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/admin/clients');
  });

  it('is not offered to a customer', async () => {
    mockApi(shellRoutes({ user: makeUser({ roles: ['ROLE_SMS_CREATE'] }) }));
    const { user } = renderApp('/clients', { loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Hello Ada' }));
    expect(
      screen.getByRole('menuitem', { name: 'Logout' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Admin' })).toBeNull();
  });
});
