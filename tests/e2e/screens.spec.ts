import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import {
  ADMIN,
  animationsDone,
  createClientViaApi,
  grantCreditViaApi,
  loginAs,
  test,
} from './fixtures.ts';

/**
 * Screenshots of each screen at desktop and phone sizes (DESIGN.md "check it by looking"),
 * kept under test-results/screens/ for review and as CI artifacts.
 */
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
] as const;

function shooter(page: Page, testInfo: TestInfo, size: string) {
  return async (name: string) => {
    await page.waitForLoadState('networkidle');
    await page.screenshot({
      path: join(testInfo.project.outputDir, 'screens', `${name}-${size}.png`),
      fullPage: true,
    });
  };
}

for (const viewport of VIEWPORTS) {
  test(`screens at ${viewport.name} size`, async ({ page, user }, testInfo) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    const shot = shooter(page, testInfo, viewport.name);
    const heading = (name: string) =>
      page.getByRole('heading', { name, exact: true }).first().waitFor();

    await page.goto('/#/login');
    await heading('Login to Skyline Console');
    await shot('login');

    await page.goto('/#/register');
    await heading('Register on Skyline Console');
    await shot('register');

    await loginAs(page, user);
    await heading('Quick Start');
    await shot('quickstart-empty');

    await page.getByRole('button', { name: 'Create Client' }).click();
    await page.getByLabel('Name').fill('Web shop');
    await shot('client-create-panel');
    await page.getByRole('button', { name: 'Create Client' }).last().click();
    await page.getByLabel('Client secret').waitFor();
    await shot('client-secret-panel');
    await page.getByRole('button', { name: 'Close Panel' }).click();

    const second = await createClientViaApi(user, 'Billing system');
    await grantCreditViaApi(second.id, '25.5');
    await page.goto('/#/clients');
    await page.reload();
    await heading('My Clients');
    await page.getByRole('link', { name: /Billing system/ }).waitFor();
    await shot('clients');

    await page.goto(`/#/clients/${second.id}`);
    await heading('My Client');
    await shot('client');

    await page.goto('/#/quickstart');
    await heading('Quick Start');
    await shot('quickstart');

    await page
      .getByRole('combobox', { name: 'Client' })
      .selectOption({ label: 'Billing system' });
    await page.goto('/#/messaging/sms');
    await heading('JSON preview');
    await page.getByLabel('Recipient').fill('+44 7700 900123');
    await page.getByLabel('Body').fill('Hello from the console ✓');
    await shot('messaging-sms');

    await page.goto('/#/billing/balance');
    await page.getByRole('tab', { name: 'Top-up History' }).waitFor();
    await shot('billing-balance');

    await page.goto('/#/billing/paymentMethods');
    await heading('Payment Methods');
    await shot('billing-payment-methods');

    await page.goto('/#/users/me');
    await heading('Update My User');
    await shot('my-user');

    await page.goto('/#/users/me/password');
    await heading('Change Password');
    await shot('change-password');

    await page.goto('/#/no-such-page');
    await heading('Page Not Found');
    await shot('not-found');

    await page.getByRole('button', { name: `Hello ${user.firstName}` }).click();
    await shot('user-menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('alertdialog').waitFor();
    await shot('logout-dialog');

    if (viewport.name === 'phone') {
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Menu' }).click();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Quick Start' })
        .waitFor();
      await animationsDone(page); // the drawer has slid in
      await shot('phone-menu');
    }
  });
}

for (const viewport of VIEWPORTS) {
  test(`admin screens at ${viewport.name} size`, async ({
    page,
    user,
  }, testInfo) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    const shot = shooter(page, testInfo, viewport.name);
    const heading = (name: string) =>
      page.getByRole('heading', { name, exact: true }).first().waitFor();
    const client = await createClientViaApi(user, 'Web shop');
    await grantCreditViaApi(client.id, '25.5');

    await loginAs(page, ADMIN);
    await page.goto('/#/admin/clients');
    await page.locator('tbody tr').first().waitFor();
    await shot('admin-clients');

    await page.goto(`/#/admin/clients/${client.id}`);
    await heading('Web shop');
    await page.getByText('This client has no route splits.').waitFor();
    await shot('admin-client');
    await page.getByRole('button', { name: 'New Route Split' }).click();
    await shot('admin-route-split-panel');
    await page.getByRole('button', { name: 'Close Panel' }).click();
    await page.getByRole('button', { name: /^Balance EUR 25\.50/ }).click();
    await page.getByRole('dialog').getByLabel('Amount').fill('10');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Give Free Credit' })
      .click();
    await page.getByRole('alertdialog').waitFor();
    await shot('admin-free-credit-confirm');
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: 'Cancel' })
      .click();
    await page.getByRole('button', { name: 'Close Panel' }).click();
    // Close Panel sits under the navbar's hover menu: move away so it does not open.
    await page.mouse.move(400, 400);

    await page.goto('/#/admin/users');
    await heading('Users');
    await page.locator('tbody tr').first().waitFor();
    await shot('admin-users');

    await page.goto(`/#/admin/users/${user.id}`);
    await heading(`${user.firstName} ${user.lastName}`);
    await page.getByRole('list', { name: 'Roles' }).waitFor();
    await shot('admin-user');
    await page.getByRole('button', { name: 'Add Role' }).click();
    await shot('admin-role-editor');
  });
}
