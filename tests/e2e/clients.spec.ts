import {
  basicAuth,
  createClientViaApi,
  expect,
  loginAs,
  test,
} from './fixtures.ts';

test.describe('Clients', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('New Client shows the secret once: masked, show/hide, copy, Close Panel', async ({
    page,
    user,
    request,
  }) => {
    await loginAs(page, user);
    await page.getByRole('button', { name: 'Create Client' }).click();
    const form = page.getByRole('dialog', { name: 'New Client' });
    await form.getByLabel('Name').fill('Web shop');
    await form.getByRole('button', { name: 'Create Client' }).click();

    const panel = page.getByRole('dialog', { name: 'Client created' });
    const secret = panel.getByLabel('Client secret');
    await expect(secret).toHaveValue('••••••');
    await panel.getByRole('button', { name: 'Show secret' }).click();
    const shown = await secret.inputValue();
    expect(shown).not.toBe('••••••');
    expect(shown.length).toBeGreaterThan(16);
    await panel.getByRole('button', { name: 'Hide secret' }).click();
    await expect(secret).toHaveValue('••••••');

    await panel.getByRole('button', { name: 'Copy secret' }).click();
    await expect(panel.getByText('Copied')).toBeVisible();
    // Runs in the page: the DOM's navigator, not the one of Node's types.
    const copied = await page.evaluate('navigator.clipboard.readText()');
    expect(copied).toBe(shown);

    // The secret works: the client reads its own balance with its id and secret.
    const clientId = await panel.getByLabel('Client ID').inputValue();
    const own = await request.get(`/api/clients/${clientId}/balances/default`, {
      headers: { authorization: basicAuth(clientId, shown) },
    });
    expect(own.status()).toBe(200);

    await panel.getByRole('button', { name: 'Close Panel' }).click();
    await expect(panel).toBeHidden();
    // The new client became the current one: Quick Start shows its card.
    await expect(
      page.getByRole('combobox', { name: 'Client' }).locator('option:checked'),
    ).toHaveText('Web shop');
    await expect(
      page.getByRole('region', { name: 'Create a Client' }).getByRole('link', {
        name: /Web shop/,
      }),
    ).toBeVisible();
  });

  test('My Clients lists cards that open the client page', async ({
    page,
    user,
  }) => {
    const client = await createClientViaApi(user, 'Billing system');
    await loginAs(page, user);
    await page.goto('/#/clients');
    await expect(
      page.getByRole('heading', { name: 'My Clients' }),
    ).toBeVisible();
    await page.getByRole('link', { name: /Billing system/ }).click();
    await expect(page).toHaveURL(new RegExp(`#/clients/${client.id}$`));
    await expect(
      page.getByRole('heading', { name: 'My Client' }),
    ).toBeVisible();
  });

  test('rename with Update or Cancel', async ({ page, user }) => {
    const client = await createClientViaApi(user, 'Old name');
    await loginAs(page, user);
    await page.goto(`/#/clients/${client.id}`);
    await page.getByRole('button', { name: /Old name/ }).click();
    await page.getByLabel('Name').fill('Not kept');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('button', { name: /Old name/ })).toBeVisible();

    await page.getByRole('button', { name: /Old name/ }).click();
    await page.getByLabel('Name').fill('New name');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('button', { name: /New name/ })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: /New name/ })).toBeVisible();
    await expect(
      page.getByRole('combobox', { name: 'Client' }).locator('option:checked'),
    ).toHaveText('New name');
  });

  test('Reset Secret asks first, then shows a new secret that replaces the old one', async ({
    page,
    user,
    request,
  }) => {
    const client = await createClientViaApi(user);
    await loginAs(page, user);
    await page.goto(`/#/clients/${client.id}`);
    await page.getByRole('button', { name: 'Reset Secret' }).click();
    const dialog = page.getByRole('alertdialog', {
      name: 'Are you sure you want to reset the secret? The existing secret will no longer be usable',
    });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Reset Secret' }).click();
    await dialog.getByRole('button', { name: 'OK' }).click();
    const panel = page.getByRole('dialog', { name: 'New secret' });
    await expect(panel.getByLabel('Client secret')).toHaveValue('••••••');
    await panel.getByRole('button', { name: 'Show secret' }).click();
    const fresh = await panel.getByLabel('Client secret').inputValue();
    expect(fresh).not.toBe(client.secret);

    const path = `/api/clients/${client.id}/balances/default`;
    const old = await request.get(path, {
      headers: { authorization: basicAuth(client.id, client.secret) },
    });
    expect(old.status()).toBe(401);
    const now = await request.get(path, {
      headers: { authorization: basicAuth(client.id, fresh) },
    });
    expect(now.status()).toBe(200);
  });

  test("Delete Client asks first, says 'The client has been deleted' and goes back to /clients", async ({
    page,
    user,
  }) => {
    const client = await createClientViaApi(user, 'Doomed');
    await createClientViaApi(user, 'Survivor');
    await loginAs(page, user);
    await page.goto(`/#/clients/${client.id}`);
    await page.getByRole('button', { name: 'Delete Client' }).click();
    const dialog = page.getByRole('alertdialog', {
      name: 'Are you sure you want to permanently delete the client?',
    });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'The client has been deleted',
    );
    await expect(page).toHaveURL(/#\/clients$/);
    await expect(page.getByRole('link', { name: /Survivor/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Doomed/ })).toBeHidden();
    await expect(
      page.getByRole('combobox', { name: 'Client' }).locator('option:checked'),
    ).toHaveText('Survivor');
  });

  test("the 31st client is refused with 'You have reach the maximum allowed number of clients.'", async ({
    page,
    user,
  }) => {
    for (let i = 0; i < 30; i++) {
      await createClientViaApi(user, `Client ${i + 1}`);
    }
    await loginAs(page, user);
    await page.goto('/#/clients');
    await expect(page.getByRole('link', { name: /Client 30/ })).toBeVisible();
    await page.getByRole('button', { name: 'New Client' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'You have reach the maximum allowed number of clients.',
    );
    await expect(page.getByRole('dialog')).toBeHidden();
  });
});
