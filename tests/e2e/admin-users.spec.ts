import type { APIRequestContext } from '@playwright/test';
import {
  ADMIN,
  basicAuth,
  createClientViaApi,
  expect,
  expectNoSeriousA11yViolations,
  loginAs,
  registerViaApi,
  test,
  uniqueEmail,
} from './fixtures.ts';

const adminHeaders = { authorization: basicAuth(ADMIN.email, ADMIN.password) };

async function rolesOf(
  request: APIRequestContext,
  userId: string,
): Promise<string[]> {
  const answer = await request.get(`/api/admin/users/${userId}/roles`, {
    headers: adminHeaders,
  });
  expect(answer.status()).toBe(200);
  const body = (await answer.json()) as { roles: { role: string }[] };
  return body.roles.map((r) => r.role);
}

test.describe('Admin users', () => {
  test('the Users list opens a user; the sidebar leads there', async ({
    page,
  }) => {
    await loginAs(page, ADMIN);
    await page.goto('/#/admin');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Users' })
      .click();
    await expect(page).toHaveURL(/#\/admin\/users$/);
    await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
    await expect(page.getByText(/^1–\d+ of \d+$/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const first = page.locator('tbody tr').first();
    const name = (await first.getByRole('link').textContent()) ?? '';
    await first.getByRole('link').click();
    await expect(page).toHaveURL(/#\/admin\/users\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await expect(page.getByRole('region', { name: 'Roles' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('the user card opens an edit panel; the changes persist', async ({
    page,
  }) => {
    const user = await registerViaApi();
    await loginAs(page, ADMIN);
    await page.goto(`/#/admin/users/${user.id}`);
    await page
      .getByRole('button', {
        name: `User ${user.firstName} ${user.lastName}: edit`,
      })
      .click();
    const panel = page.getByRole('dialog', { name: 'Edit User' });
    await expect(panel.getByLabel('First Name')).toHaveValue(user.firstName);
    await expect(panel.getByLabel('Last Name')).toHaveValue(user.lastName);
    await expect(panel.getByLabel('Organization')).toHaveValue(
      user.organization,
    );
    await expect(panel.getByLabel('Email')).toHaveValue(user.email);
    await expectNoSeriousA11yViolations(page);

    // An e-mail another user holds is refused and said in the panel.
    await panel.getByLabel('Email').fill(ADMIN.email);
    await panel.getByRole('button', { name: 'Update' }).click();
    await expect(panel.getByRole('alert')).toBeVisible();

    const email = uniqueEmail('renamed');
    await panel.getByLabel('First Name').fill('Grace');
    await panel.getByLabel('Last Name').fill('Hopper');
    await panel.getByLabel('Organization').fill('Navy');
    await panel.getByLabel('Email').fill(email);
    await panel.getByRole('button', { name: 'Update' }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Grace Hopper',
    );
    await page.reload();
    const card = page.getByRole('button', { name: 'User Grace Hopper: edit' });
    await expect(card).toContainText(email);
    await expect(card).toContainText('Navy');
  });

  test('New Client creates a client for that user, who then sees it', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi();
    await createClientViaApi(user, 'Existing');
    await loginAs(page, ADMIN);
    await page.goto(`/#/admin/users/${user.id}`);
    const section = page.getByRole('region', { name: 'Clients' });
    await expect(section.locator('tbody tr')).toHaveCount(1);
    await section.getByRole('button', { name: 'New Client' }).click();
    const panel = page.getByRole('dialog', { name: 'New Client' });
    await panel.getByLabel('Name').fill('Made by admin');
    await panel.getByRole('button', { name: 'Create Client' }).click();
    const secretPanel = page.getByRole('dialog', { name: 'Client created' });
    await expect(secretPanel.getByLabel('Client secret')).toHaveValue('••••••');
    await secretPanel.getByRole('button', { name: 'Close Panel' }).click();
    await expect(section.locator('tbody tr')).toHaveCount(2);
    const row = section
      .locator('tbody tr')
      .filter({ hasText: 'Made by admin' });
    await row.getByRole('link').click();
    await expect(page).toHaveURL(/#\/admin\/clients\/[0-9a-f-]{36}$/);

    // The customer sees the new client as theirs.
    const mine = await request.get('/api/clients', {
      headers: { authorization: basicAuth(user.email, user.password) },
    });
    const names = (
      (await mine.json()) as { clients: { name: string }[] }
    ).clients.map((c) => c.name);
    expect(names.sort()).toEqual(['Existing', 'Made by admin']);
  });

  test('roles: sorted, added by picking or typing, Invalid role when empty, removal confirmed', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi();
    await loginAs(page, ADMIN);
    await page.goto(`/#/admin/users/${user.id}`);
    const section = page.getByRole('region', { name: 'Roles' });
    const list = section.getByRole('list', { name: 'Roles' });
    await expect(list.getByRole('listitem')).toHaveText([/^ROLE_SMS_CREATE/]);

    // Empty: 'Invalid role', nothing sent.
    await section.getByRole('button', { name: 'Add Role' }).click();
    const panel = page.getByRole('dialog', { name: 'Add Role' });
    await panel.getByRole('button', { name: 'Add Role' }).click();
    await expect(panel.getByRole('alert')).toHaveText('Invalid role');
    expect(await rolesOf(request, user.id)).toEqual(['ROLE_SMS_CREATE']);
    await expectNoSeriousA11yViolations(page);

    // Picked from the catalogue.
    await panel.getByLabel('Pick a role').selectOption('ROLE_USER_VIEW');
    await expect(panel.getByLabel('Role', { exact: true })).toHaveValue(
      'ROLE_USER_VIEW',
    );
    await panel.getByRole('button', { name: 'Add Role' }).click();
    await expect(panel).toBeHidden();

    // Typed; an unknown name is refused with 'Invalid role' and nothing is added.
    await section.getByRole('button', { name: 'Add Role' }).click();
    await panel.getByLabel('Role', { exact: true }).fill('ROLE_NOT_A_ROLE');
    await panel.getByRole('button', { name: 'Add Role' }).click();
    await expect(panel.getByRole('alert')).toContainText('Invalid role');
    await panel.getByLabel('Role', { exact: true }).fill('ROLE_CLIENT_ADMIN');
    await panel.getByRole('button', { name: 'Add Role' }).click();
    await expect(panel).toBeHidden();

    await expect(list.getByRole('listitem')).toHaveText([
      /^ROLE_CLIENT_ADMIN/,
      /^ROLE_SMS_CREATE/,
      /^ROLE_USER_VIEW/,
    ]);
    expect(await rolesOf(request, user.id)).toEqual([
      'ROLE_CLIENT_ADMIN',
      'ROLE_SMS_CREATE',
      'ROLE_USER_VIEW',
    ]);

    // Removal names the role and the user; Cancel keeps it, OK removes it.
    await list.getByRole('button', { name: 'Remove ROLE_USER_VIEW' }).click();
    const question = page.getByRole('alertdialog', {
      name: `Are you sure you want to remove the role ROLE_USER_VIEW from the user ${user.email}?`,
    });
    await expect(question).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(question).toBeHidden();
    expect(await rolesOf(request, user.id)).toContain('ROLE_USER_VIEW');
    await list.getByRole('button', { name: 'Remove ROLE_USER_VIEW' }).click();
    await question.getByRole('button', { name: 'OK' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(2);
    expect(await rolesOf(request, user.id)).toEqual([
      'ROLE_CLIENT_ADMIN',
      'ROLE_SMS_CREATE',
    ]);
  });
});

test.describe('The Admin menu entry', () => {
  test('the admin sees it and it opens the admin area', async ({ page }) => {
    await loginAs(page, ADMIN);
    await page.getByRole('button', { name: /^Hello / }).click();
    await page.getByRole('menuitem', { name: 'Admin' }).click();
    await expect(page).toHaveURL(/#\/admin\/clients$/);
  });

  test('a plain customer does not see it, and /#/admin/users sends them to /login', async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    await page.getByRole('button', { name: `Hello ${user.firstName}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Admin' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto('/#/admin/users');
    await expect(page).toHaveURL(/#\/login$/);
  });
});
