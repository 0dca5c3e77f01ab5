import {
  basicAuth,
  createClientViaApi,
  expect,
  grantCreditViaApi,
  loginAs,
  test,
} from './fixtures.ts';

test.describe('Customer shell', () => {
  test("no client: the selector is disabled with 'No client' and the shell opens Quick Start", async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    await expect(page).toHaveURL(/#\/quickstart$/);
    const selector = page.getByRole('combobox', { name: 'Client' });
    await expect(selector).toBeDisabled();
    await expect(selector).toHaveText('No client');
    await expect(
      page
        .getByRole('region', { name: 'Balance', exact: true })
        .getByText('No balance'),
    ).toBeVisible();
  });

  test('the chosen client is saved under clientId and restored after a reload', async ({
    page,
    user,
  }) => {
    await createClientViaApi(user, 'First');
    const second = await createClientViaApi(user, 'Second');
    await grantCreditViaApi(second.id, '7.125');
    await loginAs(page, user);
    const selector = page.getByRole('combobox', { name: 'Client' });
    await expect(selector).toHaveValue(/.+/);
    await expect(selector.locator('option:checked')).toHaveText('First');
    const balance = page.getByRole('region', { name: 'Balance', exact: true });
    await expect(balance.getByText('EUR 0.00')).toBeVisible();

    await selector.selectOption({ label: 'Second' });
    await expect(balance.getByText('EUR 7.13')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('clientId'))).toBe(
      second.id,
    );
    await page.reload();
    await expect(selector.locator('option:checked')).toHaveText('Second');
    await expect(balance.getByText('EUR 7.13')).toBeVisible();
  });

  test('sidebar: Billing opens and closes, Insights is not available yet', async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const billing = nav.getByRole('button', { name: 'Billing' });
    await expect(billing).toHaveAttribute('aria-expanded', 'false');
    await expect(
      nav.getByRole('link', { name: 'Payment Methods' }),
    ).toBeHidden();
    await billing.click();
    await nav.getByRole('link', { name: 'Payment Methods' }).click();
    await expect(page).toHaveURL(/#\/billing\/paymentMethods$/);
    await expect(
      page.getByRole('heading', { name: 'Payment Methods' }),
    ).toBeVisible();
    await expect(
      nav.getByRole('link', { name: 'Payment Methods' }),
    ).toHaveAttribute('aria-current', 'page');
    await billing.click();
    await expect(
      nav.getByRole('link', { name: 'Payment Methods' }),
    ).toBeHidden();

    await nav.getByRole('button', { name: 'Insights' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Sorry, this is not available yet and will be coming soon.',
    );
    await nav.getByRole('link', { name: 'Quick Start' }).click();
    await expect(page).toHaveURL(/#\/quickstart$/);
    await nav.getByRole('link', { name: 'Messaging' }).click();
    await expect(page).toHaveURL(/#\/messaging\/sms$/);
  });

  test("balance widget: 'Top Up' alerts, 'View Details' goes to the balance page", async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    const widget = page.getByRole('region', { name: 'Balance', exact: true });
    await widget.getByRole('button', { name: 'Top Up' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Please contact us for top ups',
    );
    await widget.getByRole('button', { name: 'View Details' }).click();
    await expect(page).toHaveURL(/#\/billing\/balance$/);
    const tab = page.getByRole('tab', { name: 'Top-up History' });
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(tab).toHaveAttribute('id', 'billing.balance#topup_history');
    await expect(
      page.getByRole('tab', { name: 'Usage History' }),
    ).toHaveAttribute('id', 'billing.balance#usage_history');
    await page.getByRole('tab', { name: 'Usage History' }).click();
    await expect(
      page.getByRole('heading', { name: 'Usage History' }),
    ).toBeVisible();
  });

  test('the Hello menu leads to My User, My Clients and Change Password; the label goes home', async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    const menu = page.getByRole('button', { name: `Hello ${user.firstName}` });
    for (const [item, url, heading] of [
      ['My User', /#\/users\/me$/, 'Update My User'],
      ['My Clients', /#\/clients$/, 'My Clients'],
      ['Change Password', /#\/users\/me\/password$/, 'Change Password'],
    ] as const) {
      await menu.click();
      await page.getByRole('menuitem', { name: item }).click();
      await expect(page).toHaveURL(url);
      await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    }
    // Keyboard: Enter opens the menu, arrows move, Escape closes.
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'My User' })).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();

    // The product label goes to /, whose index is /billing, then /billing/balance.
    await page.getByRole('link', { name: 'Skyline Console' }).click();
    await expect(page).toHaveURL(/#\/billing\/balance$/);
  });

  test("'Hello user' when the user has no first name", async ({
    page,
    user,
    request,
  }) => {
    const cleared = await request.put('/api/users/me', {
      headers: { authorization: basicAuth(user.email, user.password) },
      data: {
        firstName: '',
        lastName: user.lastName,
        organization: user.organization,
        email: user.email,
      },
    });
    expect(cleared.status(), await cleared.text()).toBe(200);
    await loginAs(page, user);
    await expect(
      page.getByRole('button', { name: 'Hello user' }),
    ).toBeVisible();
  });
});
