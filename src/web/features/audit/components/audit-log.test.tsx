import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../../../shared/schemas/audit';
import { mockApi } from '../../../testing/mock-api';
import { currentPath, renderApp } from '../../../testing/render-app';
import type { RecordedRequest } from '../../../testing/mock-api';
import { makeClient, makeUser } from '../../../testing/test-data';

const staff = makeUser({
  email: 'staff@example.test',
  roles: ['ROLE_CLIENT_ADMIN', 'ROLE_USER_ADMIN', 'ROLE_AUDIT_LIST'],
});
const customer = makeUser({ id: '77777777-7777-4777-8777-777777777777' });
const client = makeClient();

const roleAdded: AuditEvent = {
  id: '88888888-8888-4888-8888-000000000001',
  action: 'role.added',
  actorUserId: staff.id,
  actorEmail: 'staff@example.test',
  targetType: 'user',
  targetId: customer.id,
  before: { roles: ['ROLE_SMS_CREATE'] },
  after: { roles: ['ROLE_SMS_CREATE', 'ROLE_CLIENT_LIST'] },
  ip: '203.0.113.7',
  dateCreated: '2026-11-22T09:30:00.000Z',
};
const credit: AuditEvent = {
  id: '88888888-8888-4888-8888-000000000002',
  action: 'credit.granted',
  actorUserId: staff.id,
  actorEmail: 'staff@example.test',
  targetType: 'client',
  targetId: client.id,
  before: { amount: 0 },
  after: { amount: 10, reason: 'Welcome' },
  ip: '203.0.113.7',
  dateCreated: '2026-11-21T09:30:00.000Z',
};

function auditRoute({ search }: RecordedRequest) {
  const offset = Number(new URLSearchParams(search).get('offset'));
  const events = [roleAdded, credit];
  return {
    body: { events: offset ? [] : events, total: 45, count: 30, offset },
  };
}

const auditSearches = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.path === '/api/admin/audit').map((r) => r.search);

describe('Audit log', () => {
  it('the sidebar offers Audit Log only to holders of ROLE_AUDIT_LIST', async () => {
    mockApi({
      'GET /api/users/me': { body: { ...staff, roles: ['ROLE_CLIENT_ADMIN'] } },
      'GET /api/admin/clients': {
        body: { clients: [], total: 0, count: 30, offset: 0 },
      },
    });
    renderApp('/admin/clients', { loggedIn: true });
    const nav = within(await screen.findByRole('navigation', { name: 'Main' }));
    await nav.findByRole('link', { name: 'Clients' });
    // The roles have arrived once the user menu greets the user.
    await screen.findByRole('button', { name: /^Hello Ada/ });
    expect(nav.queryByRole('link', { name: 'Audit Log' })).toBeNull();
  });

  it('shows time, action, actor, target, ip and each change as before → after', async () => {
    mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/clients': {
        body: { clients: [], total: 0, count: 30, offset: 0 },
      },
      'GET /api/admin/audit': auditRoute,
    });
    const { user } = renderApp('/admin', { loggedIn: true });
    const nav = within(await screen.findByRole('navigation', { name: 'Main' }));
    await waitFor(() => expect(currentPath()).toBe('/admin/clients'));
    await user.click(await nav.findByRole('link', { name: 'Audit Log' }));
    await waitFor(() => expect(currentPath()).toBe('/admin/audit'));

    const table = await screen.findByRole('table', {
      name: 'Audit events 1 to 2 of 45',
    });
    const [header, first, second] = within(table).getAllByRole('row');
    expect(header).toHaveTextContent('TimeActionActorTargetIPChange');
    expect(first).toHaveTextContent('role.added');
    expect(first).toHaveTextContent('staff@example.test');
    expect(first).toHaveTextContent('203.0.113.7');
    expect(
      within(first as HTMLElement).getByRole('link', { name: customer.id }),
    ).toHaveAttribute('href', `#/admin/users/${customer.id}`);
    expect(first).toHaveTextContent(
      'roles: ROLE_SMS_CREATE → ROLE_SMS_CREATE, ROLE_CLIENT_LIST',
    );
    expect(
      within(second as HTMLElement).getByRole('link', { name: client.id }),
    ).toHaveAttribute('href', `#/admin/clients/${client.id}`);
    expect(second).toHaveTextContent('amount: 0 → 10');
    expect(second).toHaveTextContent('reason: Welcome');
  });

  it('says in one line what changed, the whole before and after behind Details', async () => {
    mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/audit': auditRoute,
    });
    const { user } = renderApp('/admin/audit', { loggedIn: true });
    const table = await screen.findByRole('table', { name: /^Audit events/ });
    const [, first, second] = within(table).getAllByRole('row');
    const summary = (row: HTMLElement) =>
      row.querySelector('.audit-summary')?.textContent;
    // A role change is the role it gained, not both whole lists.
    expect(summary(first!)).toBe('+ ROLE_CLIENT_LIST');
    expect(summary(second!)).toBe('amount: 0 → 10; reason: Welcome');

    const details = within(first!).getByText('Details').closest('details');
    expect(details).not.toHaveAttribute('open');
    await user.click(within(first!).getByText('Details'));
    expect(details).toHaveAttribute('open');
    expect(details).toHaveTextContent(
      'roles: ROLE_SMS_CREATE → ROLE_SMS_CREATE, ROLE_CLIENT_LIST',
    );
  });

  it('a removed role reads as − ROLE_X', async () => {
    mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/audit': {
        body: {
          events: [
            {
              ...roleAdded,
              action: 'role.removed',
              before: roleAdded.after,
              after: roleAdded.before,
            },
          ],
          total: 1,
          count: 30,
          offset: 0,
        },
      },
    });
    renderApp('/admin/audit', { loggedIn: true });
    const table = await screen.findByRole('table', { name: /^Audit events/ });
    expect(table.querySelector('.audit-summary')).toHaveTextContent(
      /^− ROLE_CLIENT_LIST$/,
    );
  });

  it('a price event names its prefix and links to no user page', async () => {
    mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/audit': {
        body: {
          events: [
            {
              ...roleAdded,
              action: 'price.changed',
              targetType: 'price',
              targetId: '4479',
              before: null,
              after: { name: 'UK mobile', pricePerSegment: 0.04 },
            },
          ],
          total: 1,
          count: 30,
          offset: 0,
        },
      },
    });
    renderApp('/admin/audit', { loggedIn: true });
    const table = await screen.findByRole('table', { name: /^Audit events/ });
    expect(within(table).getByText('4479')).toBeInTheDocument();
    expect(within(table).queryByRole('link', { name: '4479' })).toBeNull();
  });

  it('a number event names its digits and links to no user page', async () => {
    mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/audit': {
        body: {
          events: [
            {
              ...roleAdded,
              action: 'number.assigned',
              targetType: 'number',
              targetId: '447700900100',
              before: null,
              after: { clientId: client.id, helpText: null },
            },
          ],
          total: 1,
          count: 30,
          offset: 0,
        },
      },
    });
    renderApp('/admin/audit', { loggedIn: true });
    const table = await screen.findByRole('table', { name: /^Audit events/ });
    expect(within(table).getByText('447700900100')).toBeInTheDocument();
    expect(within(table).getByText('number')).toBeInTheDocument();
    expect(within(table).queryAllByRole('link')).toEqual([]);
  });

  it('filters go into the URL and the call; paging keeps them; a bad actor id is refused', async () => {
    const { requests } = mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/audit': auditRoute,
    });
    const { user } = renderApp('/admin/audit', { loggedIn: true });
    await screen.findByRole('table', { name: /^Audit events/ });
    expect(auditSearches(requests)).toEqual(['?count=30&offset=0']);

    const filters = within(screen.getByRole('form', { name: 'Filters' }));
    await user.selectOptions(filters.getByLabelText('Action'), 'role.added');
    await user.type(filters.getByLabelText('Actor user ID'), 'not-an-id');
    await user.click(filters.getByRole('button', { name: 'Apply' }));
    expect(
      await filters.findByText(
        'Actor user ID must be a UUID such as 3f2a9c4e-8b1d-4e6f-a2c5-7d9e0b1f4a6c',
      ),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/admin/audit');

    await user.clear(filters.getByLabelText('Actor user ID'));
    await user.type(filters.getByLabelText('Actor user ID'), staff.id);
    await user.type(filters.getByLabelText('Target ID'), customer.id);
    await user.type(filters.getByLabelText('Since (UTC)'), '2026-11-01');
    await user.type(filters.getByLabelText('Until (UTC)'), '2026-11-22');
    await user.click(filters.getByRole('button', { name: 'Apply' }));

    const expectedSearch = `action=role.added&actor=${staff.id}&target=${customer.id}&since=2026-11-01&until=2026-11-22`;
    await waitFor(() =>
      expect(currentPath()).toBe(`/admin/audit?${expectedSearch}`),
    );
    await waitFor(() => expect(auditSearches(requests)).toHaveLength(2));
    const sent = new URLSearchParams(auditSearches(requests)[1]);
    expect(Object.fromEntries(sent)).toEqual({
      count: '30',
      offset: '0',
      action: 'role.added',
      actorUserId: staff.id,
      targetId: customer.id,
      since: '2026-11-01T00:00:00.000Z',
      until: '2026-11-22T23:59:59.999Z',
    });
    expect(await screen.findByRole('link', { name: 'Next' })).toHaveAttribute(
      'href',
      `#/admin/audit?${expectedSearch}&offset=30`,
    );
  });

  it('a target id that is neither a UUID nor digits is refused in the form, naming the field and the forms it takes', async () => {
    const { requests } = mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/audit': auditRoute,
    });
    const { user } = renderApp('/admin/audit', { loggedIn: true });
    await screen.findByRole('table', { name: /^Audit events/ });
    const filters = within(screen.getByRole('form', { name: 'Filters' }));
    await user.type(filters.getByLabelText('Target ID'), '44x');
    await user.click(filters.getByRole('button', { name: 'Apply' }));
    expect(
      await filters.findByText(
        'Target ID must be a UUID such as 3f2a9c4e-8b1d-4e6f-a2c5-7d9e0b1f4a6c, or the digits of a price prefix or number',
      ),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/admin/audit');
    expect(auditSearches(requests)).toEqual(['?count=30&offset=0']);
  });

  it('a link with filters opens with them filled in', async () => {
    const { requests } = mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/audit': auditRoute,
    });
    renderApp(`/admin/audit?action=credit.granted&target=${client.id}`, {
      loggedIn: true,
    });
    const filters = within(
      await screen.findByRole('form', { name: 'Filters' }),
    );
    expect(filters.getByLabelText('Action')).toHaveValue('credit.granted');
    expect(filters.getByLabelText('Target ID')).toHaveValue(client.id);
    await waitFor(() =>
      expect(auditSearches(requests)).toEqual([
        `?count=30&offset=0&action=credit.granted&targetId=${client.id}`,
      ]),
    );
  });

  it('/admin opens the audit log for staff whose only admin role is ROLE_AUDIT_LIST', async () => {
    mockApi({
      'GET /api/users/me': { body: { ...staff, roles: ['ROLE_AUDIT_LIST'] } },
      'GET /api/admin/audit': auditRoute,
    });
    renderApp('/admin', { loggedIn: true });
    await waitFor(() => expect(currentPath()).toBe('/admin/audit'));
    expect(
      await screen.findByRole('heading', { name: 'Audit Log' }),
    ).toBeInTheDocument();
  });
});
