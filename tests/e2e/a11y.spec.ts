import {
  basicAuth,
  createClientViaApi,
  expect,
  expectNoSeriousA11yViolations,
  grantCreditViaApi,
  loginAs,
  test,
} from './fixtures.ts';

/** axe on every customer screen and overlay: no serious or critical violation. */
test('every customer screen passes axe', async ({ page, user, request }) => {
  test.setTimeout(90_000);
  const client = await createClientViaApi(user, 'Web shop');
  await grantCreditViaApi(client.id, '5');
  // Batches for the batch list and the batch page: one sent, one scheduled (its Cancel shows).
  const batches = [];
  for (const sendAt of [undefined, new Date(Date.now() + 3_600_000)]) {
    const created = await request.post(`/api/clients/${client.id}/batches`, {
      headers: { authorization: basicAuth(user.email, user.password) },
      data: {
        recipients: ['+44 7700 900123', '+44 7700 900124'],
        body: 'Hello',
        ...(sendAt ? { sendAt: sendAt.toISOString() } : {}),
      },
    });
    expect(created.status()).toBe(201);
    batches.push((await created.json()).id as string);
  }
  await loginAs(page, user);

  const screens: [string, string][] = [
    ['/quickstart', 'Quick Start'],
    ['/clients', 'My Clients'],
    [`/clients/${client.id}`, 'My Client'],
    ['/billing/balance', 'Balance'],
    ['/billing/paymentMethods', 'Payment Methods'],
    ['/billing/prices', 'Prices'],
    ['/messaging/sms', 'Send an SMS'],
    ['/messaging/bulk', 'Bulk send'],
    [`/messaging/bulk/${batches[0]}`, 'Batch'],
    [`/messaging/bulk/${batches[1]}`, 'Batch'],
    ['/messaging/inbox?all=true', 'Inbox'],
    ['/messaging/inbox/447700900123', '+447700900123'],
    ['/messaging/optouts', 'Opt-outs'],
    ['/users/me', 'My User'],
    ['/users/me/password', 'Change Password'],
    ['/no-such-page', 'Page Not Found'],
  ];
  for (const [path, heading] of screens) {
    await page.goto(`/#${path}`);
    await expect(
      page.getByRole('heading', { name: heading, exact: true, level: 1 }),
    ).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expectNoSeriousA11yViolations(page);
  }

  // Overlays: the side panel with a secret, the confirmation dialog, the user menu.
  await page.goto('/#/clients');
  await page.getByRole('button', { name: 'New Client' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Another');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: 'Create Client' })
    .click();
  await expect(
    page.getByRole('dialog', { name: 'Client created' }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Close Panel' }).click();

  await page.getByRole('button', { name: `Hello ${user.firstName}` }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the phone layout passes axe with the menu open', async ({
  page,
  user,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await loginAs(page, user);
  // Opened at once: the shell's own move to Quick Start (no clients) keeps it open.
  await page.getByRole('button', { name: 'Menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Quick Start' })).toBeVisible();
  await expect(page).toHaveURL(/#\/quickstart$/);
  await expect(nav.getByRole('link', { name: 'Quick Start' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // Nothing overflows sideways at 375 px.
  const overflow = await page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  expect(overflow).toBe(0);
  await nav.getByRole('link', { name: 'Messaging' }).click();
  await expect(page).toHaveURL(/#\/messaging\/sms$/);
  await expect(nav.getByRole('link', { name: 'Quick Start' })).toBeHidden();
});
