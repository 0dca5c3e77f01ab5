import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { heldRoute, mockApi, type Route } from '../../../testing/mock-api';
import { currentPath, renderApp } from '../../../testing/render-app';
import { makeUser } from '../../../testing/test-data';
import type { PhoneNumber } from '../../../../shared/schemas/numbers';

const clientA = '22222222-2222-4222-8222-222222222222';
const clientB = '33333333-3333-4333-8333-333333333333';

const mobile: PhoneNumber = {
  number: '447700900123',
  clientId: clientA,
  helpText: 'Acme: call 0800 123 for help',
  dateCreated: '2026-11-20T10:00:00.000Z',
};
const shortCode: PhoneNumber = {
  number: '60123',
  clientId: clientB,
  helpText: null,
  dateCreated: '2026-11-21T10:00:00.000Z',
};

/** The numbers answering each query: the number starting with q, of clientId when given. */
const numbersRoute =
  (numbers: PhoneNumber[], total?: number) =>
  ({ search }: { search: string }) => {
    const params = new URLSearchParams(search);
    const q = params.get('q') ?? '';
    const clientId = params.get('clientId');
    const found = numbers.filter(
      (n) =>
        n.number.startsWith(q) &&
        (clientId === null || n.clientId === clientId),
    );
    return {
      body: {
        total: total ?? found.length,
        count: 30,
        offset: Number(params.get('offset') ?? 0),
        numbers: found,
      },
    };
  };

const staff = makeUser({ roles: ['ROLE_NUMBER_ADMIN'] });

function adminRoutes(extra: Record<string, Route> = {}, roles = staff.roles) {
  return mockApi({
    'GET /api/users/me': { body: { ...staff, roles } },
    'GET /api/admin/numbers': numbersRoute([mobile, shortCode]),
    ...extra,
  });
}

describe('Numbers, the admin screen', () => {
  it('is in the sidebar for ROLE_NUMBER_ADMIN only, and /admin opens it for them', async () => {
    adminRoutes();
    renderApp('/admin', { loggedIn: true });
    await waitFor(() => expect(currentPath()).toBe('/admin/numbers'));
    expect(await screen.findByRole('link', { name: 'Numbers' })).toBeVisible();
    expect(
      await screen.findByRole('heading', { name: 'Numbers', level: 1 }),
    ).toBeVisible();
  });

  it('is not in the sidebar without ROLE_NUMBER_ADMIN', async () => {
    adminRoutes(
      {
        'GET /api/admin/prices': {
          body: {
            currency: 'EUR',
            defaultPricePerSegment: 0.05,
            total: 0,
            count: 30,
            offset: 0,
            prices: [],
          },
        },
      },
      ['ROLE_PRICE_ADMIN'],
    );
    renderApp('/admin', { loggedIn: true });
    expect(await screen.findByRole('link', { name: 'Prices' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Numbers' })).toBeNull();
  });

  it('lists numbers with their client and help text, a phone number with its + and a short code as dialled', async () => {
    adminRoutes();
    renderApp('/admin/numbers', { loggedIn: true });
    const table = await screen.findByRole('table', {
      name: 'Numbers 1 to 2 of 2',
    });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(
      `+447700900123${clientA}Acme: call 0800 123 for help`,
    );
    expect(rows[2]).toHaveTextContent(`60123${clientB}The default`);
    // Without ROLE_CLIENT_VIEW the client is not a link (its page would answer 403).
    expect(within(table).queryByRole('link')).toBeNull();
  });

  it('links the client to its page for staff who may view clients', async () => {
    adminRoutes({}, ['ROLE_NUMBER_ADMIN', 'ROLE_CLIENT_VIEW']);
    renderApp('/admin/numbers', { loggedIn: true });
    expect(await screen.findByRole('link', { name: clientA })).toHaveAttribute(
      'href',
      `#/admin/clients/${clientA}`,
    );
  });

  it('shows grey rows while the list loads', async () => {
    const held = heldRoute({
      body: { total: 0, count: 30, offset: 0, numbers: [] },
    });
    adminRoutes({ 'GET /api/admin/numbers': held.route });
    renderApp('/admin/numbers', { loggedIn: true });
    expect(await screen.findByText('Loading numbers')).toBeInTheDocument();
    held.release();
    expect(
      await screen.findByText(
        'No numbers are assigned yet. Assign one to let a client receive messages.',
      ),
    ).toBeVisible();
  });

  it('filters by the start of a number (typed as people write it) and by client, in the URL, and refuses a client ID that is not one', async () => {
    const { requests } = adminRoutes();
    const { user } = renderApp('/admin/numbers', { loggedIn: true });
    await screen.findByRole('table', { name: /Numbers 1 to 2/ });
    const search = screen.getByRole('search', { name: 'Find numbers' });
    await user.type(within(search).getByLabelText('Search numbers'), '+44 77');
    await user.type(within(search).getByLabelText('Client ID'), 'acme');
    await user.click(within(search).getByRole('button', { name: 'Apply' }));
    expect(
      within(search).getByLabelText('Client ID'),
    ).toHaveAccessibleDescription(/Client ID must be a UUID/);
    expect(currentPath()).toBe('/admin/numbers');

    await user.clear(within(search).getByLabelText('Client ID'));
    await user.type(within(search).getByLabelText('Client ID'), clientA);
    await user.click(within(search).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(currentPath()).toBe(`/admin/numbers?q=4477&clientId=${clientA}`),
    );
    await screen.findByRole('table', { name: 'Numbers 1 to 1 of 1' });
    const last = requests.filter((r) => r.path === '/api/admin/numbers').at(-1);
    const params = new URLSearchParams(last?.search);
    expect(params.get('q')).toBe('4477');
    expect(params.get('clientId')).toBe(clientA);

    await user.click(screen.getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(currentPath()).toBe('/admin/numbers'));
    await screen.findByRole('table', { name: 'Numbers 1 to 2 of 2' });
  });

  it('searches help text with words, and says when no number matches the filters', async () => {
    const { requests } = adminRoutes();
    const { user } = renderApp('/admin/numbers', { loggedIn: true });
    await screen.findByRole('table', { name: /Numbers 1 to 2/ });
    await user.type(
      screen.getByLabelText('Search numbers'),
      ' call 0800 {Enter}',
    );
    await waitFor(() =>
      expect(currentPath()).toBe('/admin/numbers?q=call+0800'),
    );
    expect(
      await screen.findByText('No numbers match these filters.'),
    ).toBeVisible();
    const last = requests.filter((r) => r.path === '/api/admin/numbers').at(-1);
    expect(new URLSearchParams(last?.search).get('q')).toBe('call 0800');
  });

  it('assigns a number: checked as the server checks it, PUT with the client and help text, then listed', async () => {
    const numbers = [mobile];
    const { requests } = adminRoutes({
      'GET /api/admin/numbers': (request) => numbersRoute(numbers)(request),
      'PUT /api/admin/numbers/4420790001': ({ body }) => {
        const assigned = {
          number: '4420790001',
          helpText: null,
          dateCreated: '2026-11-28T10:00:00.000Z',
          ...(body as { clientId: string }),
        };
        numbers.push(assigned);
        return { body: assigned };
      },
    });
    const { user } = renderApp(`/admin/numbers?clientId=${clientB}`, {
      loggedIn: true,
    });
    await user.click(
      await screen.findByRole('button', { name: 'Assign Number' }),
    );
    const form = screen.getByRole('region', { name: 'Assign a number' });
    const number = within(form).getByLabelText('Number');
    expect(number).toHaveFocus();
    // The screen is filtered by a client: that client is the one assigned to.
    expect(within(form).getByLabelText('Client ID')).toHaveValue(clientB);
    await user.type(number, '12');
    await user.click(
      within(form).getByRole('button', { name: 'Assign Number' }),
    );
    expect(number).toHaveAccessibleDescription(
      'Number must be 3 to 15 digits without +, such as 447700900123 or 12345',
    );
    await user.clear(number);
    await user.type(number, '+44 20 7900 01');
    await user.click(
      within(form).getByRole('button', { name: 'Assign Number' }),
    );
    expect(
      await screen.findByText('The number has been assigned'),
    ).toBeInTheDocument();
    const put = requests.find((r) => r.method === 'PUT');
    // An empty help text is left out: the provider's default answers HELP.
    expect(put?.body).toEqual({ clientId: clientB });
    expect(
      screen.queryByRole('region', { name: 'Assign a number' }),
    ).toBeNull();
    expect(
      await screen.findByRole('table', { name: 'Numbers 1 to 1 of 1' }),
    ).toHaveTextContent('+4420790001');
  });

  it('edits a number (its client and help text; the number is fixed) and shows the server refusal in the form', async () => {
    const { requests } = adminRoutes({
      'PUT /api/admin/numbers/447700900123': {
        status: 404,
        body: { statusCode: 404, message: 'Client not found' },
      },
    });
    const { user } = renderApp('/admin/numbers', { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Edit +447700900123' }),
    );
    const form = screen.getByRole('region', { name: 'Edit +447700900123' });
    expect(within(form).getByLabelText('Number')).toHaveAttribute('readonly');
    expect(within(form).getByLabelText('Client ID')).toHaveFocus();
    expect(within(form).getByLabelText('Help text')).toHaveValue(
      'Acme: call 0800 123 for help',
    );
    await user.clear(within(form).getByLabelText('Client ID'));
    await user.type(within(form).getByLabelText('Client ID'), clientB);
    await user.click(within(form).getByRole('button', { name: 'Save Number' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Client not found',
    );
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      clientId: clientB,
      helpText: 'Acme: call 0800 123 for help',
    });
  });

  it('releases a number after the confirmation, and Cancel releases nothing', async () => {
    const { requests } = adminRoutes({
      'DELETE /api/admin/numbers/60123': { status: 204 },
    });
    const { user } = renderApp('/admin/numbers', { loggedIn: true });
    const release = await screen.findByRole('button', {
      name: 'Release 60123',
    });
    const question =
      'Are you sure you want to release 60123? Messages to it will no longer reach its client.';
    await user.click(release);
    await user.click(
      within(screen.getByRole('alertdialog', { name: question })).getByRole(
        'button',
        { name: 'Cancel' },
      ),
    );
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(release);
    await user.click(
      within(screen.getByRole('alertdialog', { name: question })).getByRole(
        'button',
        { name: 'OK' },
      ),
    );
    expect(
      await screen.findByText('The number has been released'),
    ).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it('says why a release failed', async () => {
    adminRoutes({
      'DELETE /api/admin/numbers/60123': {
        status: 404,
        body: { statusCode: 404, message: 'Number not found' },
      },
    });
    const { user } = renderApp('/admin/numbers', { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Release 60123' }),
    );
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', {
        name: 'OK',
      }),
    );
    expect(
      await screen.findByText(
        'The number could not be released: Number not found',
      ),
    ).toBeVisible();
  });
});
