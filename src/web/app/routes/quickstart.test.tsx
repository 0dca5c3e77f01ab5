import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render-app';
import { shellRoutes } from '../../testing/shell-stubs';
import { mockApi } from '../../testing/mock-api';
import { makeBalance, makeClient } from '../../testing/test-data';

function step(name: string) {
  return within(screen.getByRole('region', { name }));
}

describe('Quick Start', () => {
  it('without a client: a create button, no balance, no SMS button', async () => {
    mockApi(shellRoutes({ clients: [] }));
    renderApp('/quickstart', { loggedIn: true });
    expect(
      await screen.findByRole('heading', { name: 'Quick Start' }),
    ).toBeInTheDocument();
    expect(
      step('Create a Client').getByRole('button', { name: 'Create Client' }),
    ).toBeInTheDocument();
    expect(step('Top Up the Balance').queryByText('EUR 12.50')).toBeNull();
    expect(step('Send an SMS').queryByRole('link')).toBeNull();
  });

  it('with a client and a balance: the client card, the balance card and the SMS button', async () => {
    const client = makeClient({ name: 'Web shop' });
    mockApi(shellRoutes({ clients: [client] }));
    renderApp('/quickstart', { loggedIn: true });
    await screen.findByRole('heading', { name: 'Quick Start' });
    expect(
      step('Create a Client').getByRole('link', { name: /Web shop/ }),
    ).toHaveAttribute('href', `#/clients/${client.id}`);
    expect(
      await step('Top Up the Balance').findByText('EUR 12.50'),
    ).toBeInTheDocument();
    // What a segment costs where is one click from the balance (issue 19).
    expect(
      step('Top Up the Balance').getByRole('link', {
        name: 'Prices by destination',
      }),
    ).toHaveAttribute('href', '#/billing/prices');
    expect(
      step('Send an SMS').getByRole('link', { name: 'Send an SMS' }),
    ).toHaveAttribute('href', '#/messaging/sms');
    expect(step('Create a Client').getByText('Done')).toBeInTheDocument();
    expect(step('Top Up the Balance').getByText('Done')).toBeInTheDocument();
  });

  it('a balance of 0.00 is shown but the top-up step is not ticked', async () => {
    const client = makeClient({ name: 'Web shop' });
    mockApi({
      ...shellRoutes({ clients: [client] }),
      [`GET /api/clients/${client.id}/balances/default`]: {
        body: makeBalance({ id: client.id, amount: 0 }),
      },
    });
    renderApp('/quickstart', { loggedIn: true });
    await screen.findByRole('heading', { name: 'Quick Start' });
    expect(
      await step('Top Up the Balance').findByText('EUR 0.00'),
    ).toBeInTheDocument();
    expect(step('Create a Client').getByText('Done')).toBeInTheDocument();
    expect(step('Top Up the Balance').queryByText('Done')).toBeNull();
  });
});
