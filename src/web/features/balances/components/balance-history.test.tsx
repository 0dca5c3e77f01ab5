import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { mockApi } from '../../../testing/mock-api';
import { makeClient } from '../../../testing/test-data';

describe('Billing', () => {
  it('/billing goes to /billing/balance with Top-up History selected first', async () => {
    mockApi({
      ...shellRoutes(),
      [`GET /api/clients/${makeClient().id}/balances/default/usage`]: {
        body: { days: [] },
      },
    });
    const { user } = renderApp('/billing', { loggedIn: true });
    const topup = await screen.findByRole('tab', { name: 'Top-up History' });
    expect(currentPath()).toBe('/billing/balance');
    expect(topup).toHaveAttribute('id', 'billing.balance#topup_history');
    expect(topup).toHaveAttribute('aria-selected', 'true');
    const usage = screen.getByRole('tab', { name: 'Usage History' });
    expect(usage).toHaveAttribute('id', 'billing.balance#usage_history');
    expect(usage).toHaveAttribute('aria-selected', 'false');
    expect(
      screen.getByRole('heading', { name: 'Top-up History' }),
    ).toBeInTheDocument();

    await user.click(usage);
    expect(usage).toHaveAttribute('aria-selected', 'true');
    expect(
      screen.getByRole('heading', { name: 'Usage History' }),
    ).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(topup).toHaveAttribute('aria-selected', 'true');
    expect(topup).toHaveFocus();
  });

  it('/billing/paymentMethods shows its heading', async () => {
    mockApi(shellRoutes());
    renderApp('/billing/paymentMethods', { loggedIn: true });
    expect(
      await screen.findByRole('heading', { name: 'Payment Methods' }),
    ).toBeInTheDocument();
  });
});
