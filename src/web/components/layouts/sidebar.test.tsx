import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentPath, renderApp } from '../../testing/render-app';
import { shellRoutes } from '../../testing/shell-stubs';
import { mockApi } from '../../testing/mock-api';

async function sidebar() {
  return within(await screen.findByRole('navigation', { name: 'Main' }));
}

describe('customer sidebar', () => {
  it('lists the balance widget, then Quick Start, Messaging, Billing and Insights', async () => {
    mockApi(shellRoutes());
    renderApp('/billing/balance', { loggedIn: true });
    const nav = await sidebar();
    const items = nav
      .getAllByRole('listitem')
      .filter((li) => li.parentElement?.classList.contains('nav-list'));
    expect(items.map((li) => li.firstElementChild?.textContent)).toEqual([
      expect.stringMatching(/^Balance/),
      'Quick Start',
      'Messaging',
      'Billing',
      'Insights',
    ]);
    expect(nav.getByRole('link', { name: 'Quick Start' })).toHaveAttribute(
      'href',
      '#/quickstart',
    );
    expect(nav.getByRole('link', { name: 'Messaging' })).toHaveAttribute(
      'href',
      '#/messaging',
    );
  });

  it('keeps Billing closed by default and toggles it by click', async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/quickstart', { loggedIn: true });
    const nav = await sidebar();
    const billing = nav.getByRole('button', { name: 'Billing' });
    expect(billing).toHaveAttribute('aria-expanded', 'false');
    expect(nav.queryByRole('link', { name: 'Payment Methods' })).toBeNull();

    await user.click(billing);
    expect(billing).toHaveAttribute('aria-expanded', 'true');
    expect(nav.getByRole('link', { name: 'Balance' })).toHaveAttribute(
      'href',
      '#/billing/balance',
    );
    await user.click(nav.getByRole('link', { name: 'Payment Methods' }));
    expect(
      await screen.findByRole('heading', { name: 'Payment Methods' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/billing/paymentMethods');
    expect(nav.getByRole('link', { name: 'Payment Methods' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await user.click(billing);
    expect(billing).toHaveAttribute('aria-expanded', 'false');
  });

  it('marks the active item', async () => {
    mockApi(shellRoutes());
    renderApp('/quickstart', { loggedIn: true });
    const nav = await sidebar();
    expect(nav.getByRole('link', { name: 'Quick Start' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(nav.getByRole('link', { name: 'Messaging' })).not.toHaveAttribute(
      'aria-current',
    );
  });

  it('Insights shows the not-available alert and stays on the page', async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/quickstart', { loggedIn: true });
    const nav = await sidebar();
    await user.click(nav.getByRole('button', { name: 'Insights' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Sorry, this is not available yet and will be coming soon.',
    );
    expect(currentPath()).toBe('/quickstart');
  });
});
