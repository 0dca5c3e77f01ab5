import { randomBytes } from 'node:crypto';
import {
  ADMIN,
  createClientViaApi,
  expect,
  loginAs,
  test,
} from './fixtures.ts';

/**
 * Overlays (side panel, confirmation, phone drawer) belong to the history entry they were
 * opened on: Back or any other navigation leaves that page and closes them, and the page
 * shown next is usable, never left inert under a stale overlay.
 */
test.describe('Overlays and navigation', () => {
  test('Back from an admin client with Edit Client open shows the list, usable, with no panel', async ({
    page,
    user,
  }) => {
    const name = `Panel ${randomBytes(4).toString('hex')}`;
    const client = await createClientViaApi(user, name);
    await loginAs(page, ADMIN);
    await page.goto('/#/admin/clients');
    await expect(page.getByRole('heading', { name: 'Clients' })).toBeVisible();
    // Straight to the client (the list is oldest first: it may be on a later page).
    await page.goto(`/#/admin/clients/${client.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    const edit = page.getByRole('button', { name: `Client ${name}: edit` });
    await edit.click();
    await expect(
      page.getByRole('dialog', { name: 'Edit Client' }),
    ).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(/#\/admin\/clients$/);
    await expect(page.getByRole('heading', { name: 'Clients' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Forward does not bring the closed panel back, and the client page works.
    await page.goForward();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await edit.click();
    await expect(
      page.getByRole('dialog', { name: 'Edit Client' }),
    ).toBeVisible();

    // Back again, and the list is usable: its sidebar link leads on.
    await page.goBack();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Users' })
      .click();
    await expect(page).toHaveURL(/#\/admin\/users$/);
    await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  });

  test("going to another screen closes the customer's Client created panel", async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    await page.getByRole('button', { name: 'Create Client' }).click();
    const form = page.getByRole('dialog', { name: 'New Client' });
    await form.getByLabel('Name').fill('Web shop');
    await form.getByRole('button', { name: 'Create Client' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Client created' }),
    ).toBeVisible();

    // The panel is modal, so the sidebar is out of reach: the address changes instead, as
    // with a bookmark or a typed address.
    await page.goto('/#/messaging/sms');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(
      page.getByRole('heading', { name: 'Send an SMS' }),
    ).toBeVisible();
    // The sidebar works again.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Quick Start' }).click();
    await expect(page).toHaveURL(/#\/quickstart$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('Back closes the logout confirmation with the page it was asked on', async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Messaging' }).click();
    await expect(page).toHaveURL(/#\/messaging\/sms$/);
    await page.getByRole('button', { name: `Hello ${user.firstName}` }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(
      page.getByRole('alertdialog', {
        name: 'Are you sure you want to logout?',
      }),
    ).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(/#\/quickstart$/);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await page.goForward();
    await expect(page).toHaveURL(/#\/messaging\/sms$/);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    // Still logged in, and the sidebar is usable.
    await nav.getByRole('link', { name: 'Quick Start' }).click();
    await expect(page).toHaveURL(/#\/quickstart$/);
  });

  test('on a phone, Back closes the drawer and Forward does not reopen it', async ({
    page,
    user,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await loginAs(page, user);
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await menu.click();
    await nav.getByRole('link', { name: 'Messaging' }).click();
    await expect(page).toHaveURL(/#\/messaging\/sms$/);
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await page.goBack();
    await expect(page).toHaveURL(/#\/quickstart$/);
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await page.goForward();
    await expect(page).toHaveURL(/#\/messaging\/sms$/);
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    // Nothing is left inert: the navbar's menu opens the drawer again.
    await menu.click();
    await expect(nav.getByRole('link', { name: 'Quick Start' })).toBeVisible();
  });
});
