import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeBalance, makeClient } from '../../../testing/test-data';

const client = makeClient();

function serveBalance(amount: number, minThreshold: number) {
  mockApi({
    ...shellRoutes({ clients: [client] }),
    [`GET /api/clients/${client.id}/balances/default`]: {
      body: makeBalance({ id: client.id, amount, minThreshold }),
    },
  });
}

async function widget() {
  return within(await screen.findByRole('region', { name: 'Balance' }));
}

function topUpStep() {
  return within(screen.getByRole('region', { name: 'Top Up the Balance' }));
}

describe('low-balance warning', () => {
  it('below the threshold: the widget and Quick Start warn, and the widget keeps its amount and buttons', async () => {
    serveBalance(4.99, 5);
    renderApp('/quickstart', { loggedIn: true });
    const balance = await widget();
    expect(await balance.findByText('EUR 4.99')).toBeInTheDocument();
    expect(balance.getByRole('status')).toHaveTextContent(
      'Low balance: below EUR 5.00',
    );
    expect(
      balance.getByRole('button', { name: 'View Details' }),
    ).toBeInTheDocument();
    expect(balance.getByRole('button', { name: 'Top Up' })).toBeInTheDocument();

    expect(await topUpStep().findByRole('status')).toHaveTextContent(
      'Low balance: EUR 4.99 is below EUR 5.00.',
    );
  });

  it('at the threshold exactly: no warning anywhere', async () => {
    serveBalance(5, 5);
    renderApp('/quickstart', { loggedIn: true });
    expect(await (await widget()).findByText('EUR 5.00')).toBeInTheDocument();
    expect(await topUpStep().findByText('EUR 5.00')).toBeInTheDocument();
    expect(screen.queryByText(/Low balance/)).toBeNull();
  });

  it('with no threshold set (0), an empty balance is not warned about', async () => {
    serveBalance(0, 0);
    renderApp('/quickstart', { loggedIn: true });
    expect(await (await widget()).findByText('EUR 0.00')).toBeInTheDocument();
    expect(screen.queryByText(/Low balance/)).toBeNull();
  });
});
