import type { APIRequestContext, Page } from '@playwright/test';
import {
  ADMIN,
  basicAuth,
  createClientViaApi,
  expect,
  expectNoSeriousA11yViolations,
  loginAs,
  registerViaApi,
  test,
  type TestClient,
} from './fixtures.ts';

const adminHeaders = { authorization: basicAuth(ADMIN.email, ADMIN.password) };
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

async function openAdmin(page: Page, path = '/admin'): Promise<void> {
  await loginAs(page, ADMIN);
  await page.goto(`/#${path}`);
}

/** A fresh customer with one client, created through the API. */
async function customerWithClient(
  request: APIRequestContext,
  name = 'Shop',
): Promise<{ client: TestClient; userId: string }> {
  const user = await registerViaApi();
  const client = await createClientViaApi(user, name);
  return { client, userId: user.id };
}

async function splitsOf(request: APIRequestContext, clientId: string) {
  const answer = await request.get(
    `/api/admin/routes/split?clientId=${clientId}`,
    { headers: adminHeaders },
  );
  expect(answer.status()).toBe(200);
  const body = (await answer.json()) as {
    routes: { id: string; deliveryMethod: string; weight: number }[];
  };
  return body.routes;
}

test.describe('Admin shell', () => {
  test('/admin opens Clients in the admin shell, with its label, sidebar and footer', async ({
    page,
  }) => {
    await openAdmin(page);
    await expect(page).toHaveURL(/#\/admin\/clients$/);
    await expect(page.getByRole('heading', { name: 'Clients' })).toBeVisible();
    await expect(page.locator('.shell')).toHaveAttribute('data-shell', 'admin');
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('link', { name: /Admin$/ })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Clients' })).toHaveAttribute(
      'href',
      '#/admin/clients',
    );
    await expect(nav.getByRole('link', { name: 'Users' })).toHaveAttribute(
      'href',
      '#/admin/users',
    );
    // Pricing has no link and no screen.
    await expect(nav.getByRole('link', { name: 'Pricing' })).toHaveCount(0);
    await nav.getByRole('button', { name: 'Pricing' }).click();
    await expect(
      page.getByRole('alert').filter({
        hasText: 'Sorry, this is not available yet and will be coming soon.',
      }),
    ).toBeVisible();
    await expect(page).toHaveURL(/#\/admin\/clients$/);
    await expect(page.getByRole('contentinfo')).toContainText('Powered by');
    await expectNoSeriousA11yViolations(page);
  });

  test('an unknown admin route shows Page Not Found inside the admin shell', async ({
    page,
  }) => {
    await openAdmin(page, '/admin/no-such-screen');
    await expect(
      page.getByRole('heading', { name: 'Page Not Found' }),
    ).toBeVisible();
    await expect(page.locator('.shell')).toHaveAttribute('data-shell', 'admin');
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/#\/admin\/clients$/);
  });

  test('a customer without admin roles opening /#/admin is refused by the server and sent to /login', async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    const refused = page.waitForResponse(
      (answer) =>
        answer.url().includes('/api/admin/clients') && answer.status() === 403,
    );
    await page.goto('/#/admin');
    await refused;
    await expect(page).toHaveURL(/#\/login$/);
    await expect(page.getByRole('alert')).toBeVisible();
  });

  test('at 375 px the admin shell does not overflow and its drawer opens', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openAdmin(page);
    await expect(page.getByRole('heading', { name: 'Clients' })).toBeVisible();
    const overflow = await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBe(0);
    await page.getByRole('button', { name: 'Menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Users' }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('Admin clients', () => {
  test('lists every client with its user id, 30 a page, with Next and Previous', async ({
    page,
  }) => {
    // Enough clients for a second page whatever other tests have created.
    const owner = await registerViaApi();
    for (let i = 0; i < 30; i += 1) {
      await createClientViaApi(owner, `Paging ${i}`);
    }
    await createClientViaApi(await registerViaApi(), 'Paging 30');

    await openAdmin(page, '/admin/clients');
    const table = page.getByRole('table');
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(30);
    await expect(page.getByText(/^1–30 of \d+$/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Previous' })).toHaveCount(0);

    // The user id links to the user's page; the row opens the client.
    const firstRow = rows.first();
    await expect(firstRow.getByRole('link').nth(1)).toHaveAttribute(
      'href',
      new RegExp(`^#/admin/users/${UUID}$`),
    );
    await page.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(/#\/admin\/clients\?offset=30$/);
    await expect(page.getByText(/^31–\d+ of \d+$/)).toBeVisible();
    await expect(rows.first()).toBeVisible();

    // The page survives a reload; Previous goes back to the first page.
    await page.reload();
    await expect(page.getByText(/^31–\d+ of \d+$/)).toBeVisible();
    await page.getByRole('link', { name: 'Previous' }).click();
    await expect(page).toHaveURL(/#\/admin\/clients$/);
    await expect(rows).toHaveCount(30);
    await expectNoSeriousA11yViolations(page);
  });

  test('a click on a row opens the client; a click on its user id opens the user', async ({
    page,
    request,
  }) => {
    await customerWithClient(request);
    await openAdmin(page, '/admin/clients');
    const row = page.locator('tbody tr').first();
    const name = (await row.getByRole('link').first().textContent()) ?? '';
    const userLink = row.getByRole('link').nth(1);
    const userId = (await userLink.textContent()) ?? '';
    // Anywhere on the row, here over the creation date (the row's link covers it: force
    // skips Playwright's check that the cell itself receives the click).
    await row.locator('td').last().click({ force: true });
    await expect(page).toHaveURL(new RegExp(`#/admin/clients/${UUID}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);

    await page.goBack();
    await page.locator('tbody tr').first().getByRole('link').nth(1).click();
    await expect(page).toHaveURL(new RegExp(`#/admin/users/${userId}$`));
  });
});

test.describe('Admin client page', () => {
  test('the Client card opens an edit panel that renames the client', async ({
    page,
    request,
  }) => {
    const { client, userId } = await customerWithClient(request, 'Old name');
    await openAdmin(page, `/admin/clients/${client.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Old name',
    );
    await expect(page.getByRole('link', { name: 'View User' })).toHaveAttribute(
      'href',
      `#/admin/users/${userId}`,
    );
    await page.getByRole('button', { name: 'Client Old name: edit' }).click();
    const panel = page.getByRole('dialog', { name: 'Edit Client' });
    await expect(
      panel.getByRole('button', { name: 'Close Panel' }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await panel.getByLabel('Name').fill('New name');
    await panel.getByRole('button', { name: 'Update' }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'New name',
    );
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'New name',
    );

    // An empty name is refused in the panel; Cancel closes it and changes nothing.
    await page.getByRole('button', { name: 'Client New name: edit' }).click();
    await panel.getByLabel('Name').fill(' ');
    await panel.getByRole('button', { name: 'Update' }).click();
    await expect(panel.getByText('Name is required')).toBeVisible();
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'New name',
    );
  });

  test('free credit: the amount, a confirmation naming it, then the new balance on the card', async ({
    page,
    request,
  }) => {
    const { client } = await customerWithClient(request);
    await openAdmin(page, `/admin/clients/${client.id}`);
    const card = page.getByRole('button', { name: /^Balance EUR 0\.00/ });
    await expect(card).toContainText('Client ID');
    await expect(card).toContainText(client.id);
    await card.click();
    const panel = page.getByRole('dialog', { name: 'Free Credit' });
    const amount = panel.getByLabel('Amount');

    // Not a decimal: said in the panel, nothing asked, nothing sent.
    await amount.fill('12,5');
    await panel.getByRole('button', { name: 'Give Free Credit' }).click();
    await expect(panel.getByText(/^Enter an amount above 0/)).toBeVisible();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    // Cancel at the confirmation sends nothing.
    await amount.fill('12.50');
    await panel.getByRole('button', { name: 'Give Free Credit' }).click();
    const question = page.getByRole('alertdialog', {
      name: 'Are you sure you want to give 12.5 free credit to the client?',
    });
    await expect(question).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(question).toBeHidden();
    const before = await request.get(
      `/api/admin/clients/${client.id}/balances/default`,
      { headers: adminHeaders },
    );
    expect(((await before.json()) as { amount: number }).amount).toBe(0);

    await panel.getByRole('button', { name: 'Give Free Credit' }).click();
    await question.getByRole('button', { name: 'OK' }).click();
    await expect(panel).toBeHidden();
    await expect(
      page.getByRole('button', { name: /^Balance EUR 12\.50/ }),
    ).toBeVisible();
    await expect(
      page.getByRole('status').filter({ hasText: 'EUR 12.50' }),
    ).toBeVisible();

    // Exact: a second grant of 0.1 makes 12.6, not 12.600000000000001.
    await page.getByRole('button', { name: /^Balance EUR 12\.50/ }).click();
    await panel.getByLabel('Amount').fill('0.1');
    await panel.getByRole('button', { name: 'Give Free Credit' }).click();
    await page
      .getByRole('alertdialog', {
        name: 'Are you sure you want to give 0.1 free credit to the client?',
      })
      .getByRole('button', { name: 'OK' })
      .click();
    await expect(
      page.getByRole('button', { name: /^Balance EUR 12\.60/ }),
    ).toBeVisible();
    const after = await request.get(
      `/api/admin/clients/${client.id}/balances/default`,
      { headers: adminHeaders },
    );
    expect(((await after.json()) as { amount: number }).amount).toBe(12.6);
  });

  test('route splits: create with weight 10 by default, shares in %, edit, and delete exactly one', async ({
    page,
    request,
  }) => {
    const { client, userId } = await customerWithClient(request);
    await openAdmin(page, `/admin/clients/${client.id}`);
    const section = page.getByRole('region', { name: 'Route Splits' });
    await expect(
      section.getByText('This client has no route splits.'),
    ).toBeVisible();

    await section.getByRole('button', { name: 'New Route Split' }).click();
    const panel = page.getByRole('dialog', { name: 'New Route Split' });
    await expect(panel.getByLabel('Weight')).toHaveValue('10');
    const method = panel.getByLabel('Delivery Method');
    await expect(method.locator('option')).toHaveText([
      'VONAGE_SMS',
      'MELROSE_SMPP',
      'WORLD_SPECIAL',
    ]);
    await method.selectOption('MELROSE_SMPP');
    await expectNoSeriousA11yViolations(page);
    await panel.getByRole('button', { name: 'Create' }).click();
    await expect(panel).toBeHidden();
    const rows = section.locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('MELROSE_SMPP');
    await expect(rows.first()).toContainText('100 %');

    await section.getByRole('button', { name: 'New Route Split' }).click();
    await panel.getByLabel('Delivery Method').selectOption('VONAGE_SMS');
    await panel.getByLabel('Weight').fill('30');
    await panel.getByRole('button', { name: 'Create' }).click();
    await expect(rows).toHaveCount(2);
    const melrose = rows.filter({ hasText: 'MELROSE_SMPP' });
    const vonage = rows.filter({ hasText: 'VONAGE_SMS' });
    await expect(melrose).toContainText('25 %');
    await expect(vonage).toContainText('75 %');

    const stored = await splitsOf(request, client.id);
    expect(stored).toHaveLength(2);
    expect(
      stored.find((s) => s.deliveryMethod === 'MELROSE_SMPP'),
    ).toMatchObject({
      weight: 10,
    });
    const created = await request.get(
      `/api/admin/routes/split/${stored[0]!.id}`,
      {
        headers: adminHeaders,
      },
    );
    expect(await created.json()).toMatchObject({ userId, clientId: client.id });

    // Edit: a click on the split opens it.
    await melrose
      .getByRole('button', { name: /^MELROSE_SMPP, weight 10/ })
      .click();
    const editPanel = page.getByRole('dialog', { name: 'Route Split' });
    await expect(editPanel.getByLabel('Delivery Method')).toHaveValue(
      'MELROSE_SMPP',
    );
    await editPanel.getByLabel('Weight').fill('-1');
    await editPanel.getByRole('button', { name: 'Update' }).click();
    await expect(
      editPanel.getByText('Weight must not be negative'),
    ).toBeVisible();
    await editPanel.getByLabel('Weight').fill('20');
    await editPanel.getByRole('button', { name: 'Update' }).click();
    await expect(editPanel).toBeHidden();
    await expect(melrose).toContainText('40 %');
    await expect(vonage).toContainText('60 %');

    // Delete asks first; Cancel keeps the split, OK deletes exactly that one.
    await vonage.getByRole('button', { name: /^VONAGE_SMS/ }).click();
    await editPanel.getByRole('button', { name: 'Delete' }).click();
    const question = page.getByRole('alertdialog', {
      name: 'Are you sure you want to delete the route split?',
    });
    await question.getByRole('button', { name: 'Cancel' }).click();
    expect(await splitsOf(request, client.id)).toHaveLength(2);
    await editPanel.getByRole('button', { name: 'Delete' }).click();
    await question.getByRole('button', { name: 'OK' }).click();
    await expect(editPanel).toBeHidden();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('MELROSE_SMPP');
    await expect(rows.first()).toContainText('100 %');
    const left = await splitsOf(request, client.id);
    expect(left.map((s) => [s.deliveryMethod, s.weight])).toEqual([
      ['MELROSE_SMPP', 20],
    ]);
  });
});

test('a user holding only ROLE_CLIENT_LIST sees the clients list and is refused elsewhere', async ({
  page,
  request,
  user,
}) => {
  const granted = await request.post(`/api/admin/users/${user.id}/roles/add`, {
    headers: adminHeaders,
    data: { role: 'ROLE_CLIENT_LIST' },
  });
  expect(granted.status(), await granted.text()).toBe(200);
  // A client of its own, so the list is not empty whatever ran before.
  await createClientViaApi(user, 'Listed client');
  await loginAs(page, user);
  await page.goto('/#/admin/clients');
  await expect(page.locator('tbody tr').first()).toBeVisible();

  // The client page needs ROLE_CLIENT_VIEW: the server refuses, the console goes to /login.
  await page.locator('tbody tr').first().getByRole('link').first().click();
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByRole('alert')).toBeVisible();
});
