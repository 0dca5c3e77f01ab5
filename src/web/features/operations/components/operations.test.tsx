import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type {
  Operations,
  OperationsMethod,
} from '../../../../shared/schemas/operations';
import { mockApi } from '../../../testing/mock-api';
import { currentPath, renderApp } from '../../../testing/render-app';
import { makeUser } from '../../../testing/test-data';
import { OPERATIONS_REFRESH_MS } from '../api/get-operations';
import { secondsText } from './operations-overview';

const staff = makeUser({
  email: 'ops@example.test',
  roles: ['ROLE_OPERATIONS_VIEW'],
});

function method(
  name: OperationsMethod['method'],
  extra: Partial<OperationsMethod> = {},
): OperationsMethod {
  return {
    method: name,
    states: {},
    latency: { p50: null, p95: null },
    simulated: false,
    bound: null,
    perMinute: new Array(60).fill(0),
    inbound: { lastHour: 0, lastDay: 0 },
    ...extra,
  };
}

function figures(queueDepth: number): Operations {
  return {
    since: '2026-11-25T22:00:00.000Z',
    queueDepth,
    unrouted: { ACCEPTED: 2 },
    methods: [
      method('MELROSE_SMPP', {
        states: { DELIVERED: 40, SUBMITTED: 3, FAILED: 1 },
        latency: { p50: 0.125, p95: 1.5 },
        bound: true,
        perMinute: [...new Array(59).fill(0), 44],
      }),
      method('VONAGE_SMS', {
        bound: false,
        inbound: { lastHour: 7, lastDay: 130 },
      }),
      method('WORLD_SPECIAL', { simulated: true }),
    ],
    backup: {
      lastSuccessAt: '2026-11-25T21:00:00.000Z',
      last: {
        kind: 'scheduled',
        finishedAt: '2026-11-25T21:30:00.000Z',
        ok: false,
        error: 'disk full',
      },
      schedule: { intervalHours: 24, keep: 7 },
    },
  };
}

describe('Operations', () => {
  it('the sidebar offers Operations only to holders of ROLE_OPERATIONS_VIEW, and /admin opens it for them', async () => {
    mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/operations': { body: figures(0) },
    });
    renderApp('/admin', { loggedIn: true });
    await waitFor(() => expect(currentPath()).toBe('/admin/operations'));
    expect(
      await screen.findByRole('heading', { name: 'Operations' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Operations' })).toBeVisible();
  });

  it('is not in the sidebar of staff without the role', async () => {
    mockApi({
      'GET /api/users/me': {
        body: { ...staff, roles: ['ROLE_AUDIT_LIST'] },
      },
      'GET /api/admin/audit': {
        body: { events: [], total: 0, count: 30, offset: 0 },
      },
    });
    renderApp('/admin/audit', { loggedIn: true });
    expect(
      await screen.findByRole('link', { name: 'Audit Log' }),
    ).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Operations' })).toBeNull();
  });

  it('shows per method the messages by state, latency and bind, and the queue depth', async () => {
    mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/operations': { body: figures(12) },
    });
    renderApp('/admin/operations', { loggedIn: true });
    const table = await screen.findByRole('table', {
      name: /Delivery methods/,
    });
    // Methods are columns, in the order the server sends them.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['MELROSE_SMPP', 'VONAGE_SMS', 'WORLD_SPECIAL']);
    const row = (label: string) =>
      within(
        within(table).getByRole('rowheader', { name: label }).parentElement!,
      )
        .getAllByRole('cell')
        .map((td) => td.textContent);
    expect(row('Connector')).toEqual(['Configured', 'Configured', 'SIMULATED']);
    expect(within(table).getByText('SIMULATED')).toBeVisible();
    expect(row('Bind')).toEqual(['Up', 'Down', 'No bind on this node']);
    expect(row('Messages')).toEqual(['44', '0', '0']);
    expect(row('DELIVERED')).toEqual(['40', '0', '0']);
    expect(row('SUBMITTED')).toEqual(['3', '0', '0']);
    expect(row('FAILED')).toEqual(['1', '0', '0']);
    expect(row('Latency p50')).toEqual(['0.13 s', '—', '—']);
    expect(row('Latency p95')).toEqual(['1.50 s', '—', '—']);
    expect(row('Inbound')).toEqual(['0', '7', '0']);
    expect(row('Inbound (24 h)')).toEqual(['0', '130', '0']);
    const facts = screen.getByText('Waiting in the queue').parentElement!;
    expect(within(facts).getByText('12')).toBeInTheDocument();
    expect(
      screen.getByText('Not routed yet (last hour)').parentElement,
    ).toHaveTextContent('2');
    // The chart's text alternative.
    expect(
      screen.getByRole('img', { name: /MELROSE_SMPP: 44 messages/ }),
    ).toBeInTheDocument();
  });

  it('shows the last backup, a failed attempt since and the schedule', async () => {
    mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/operations': { body: figures(0) },
    });
    renderApp('/admin/operations', { loggedIn: true });
    const fact = (await screen.findByText('Last backup')).parentElement!;
    expect(fact.querySelector('time')?.getAttribute('dateTime')).toBe(
      '2026-11-25T21:00:00.000Z',
    );
    expect(fact).toHaveTextContent(/failed at .*: disk full/);
    expect(fact).toHaveTextContent('every 24 h, keeping 7');
  });

  it('says when there has been no backup and none is scheduled', async () => {
    mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/operations': {
        body: {
          ...figures(0),
          backup: { lastSuccessAt: null, last: null, schedule: null },
        },
      },
    });
    renderApp('/admin/operations', { loggedIn: true });
    const fact = (await screen.findByText('Last backup')).parentElement!;
    expect(fact).toHaveTextContent('None yet');
    expect(fact).toHaveTextContent('not scheduled (BACKUP_DIR unset)');
    expect(fact).not.toHaveTextContent('failed');
  });

  it('refreshes by itself while open', async () => {
    let depth = 5;
    const { requests } = mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/admin/operations': () => ({ body: figures(depth) }),
    });
    renderApp('/admin/operations', { loggedIn: true });
    const facts = (await screen.findByText('Waiting in the queue'))
      .parentElement!;
    expect(within(facts).getByText('5')).toBeInTheDocument();
    depth = 9;
    expect(
      await within(facts).findByText(
        '9',
        {},
        { timeout: OPERATIONS_REFRESH_MS + 3_000 },
      ),
    ).toBeInTheDocument();
    expect(
      requests.filter((r) => r.path === '/api/admin/operations').length,
    ).toBeGreaterThanOrEqual(2);
  }, 15_000);

  it('writes latencies in seconds', () => {
    expect(secondsText(null)).toBe('—');
    expect(secondsText(0.0421)).toBe('0.04 s');
    expect(secondsText(12.4)).toBe('12 s');
  });
});
