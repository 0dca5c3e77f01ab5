import {
  ADMIN,
  createClientViaApi,
  expect,
  loginAs,
  test,
} from './fixtures.ts';

const RESET_QUESTION =
  'Are you sure you want to reset the secret? The existing secret will no longer be usable';

test.describe('Texts users read', () => {
  test('a refused status callback URL is named as the form labels it, and the refusal goes once the URL changes', async ({
    page,
    user,
  }) => {
    const client = await createClientViaApi(user, 'Hooks');
    await loginAs(page, user);
    await page.goto(`/#/clients/${client.id}`);
    const section = page.getByRole('region', { name: 'Status Callback' });
    const url = section.getByLabel('Status callback URL');
    await url.fill('https://nowhere.invalid/sms-status');
    await section.getByRole('button', { name: 'Save' }).click();
    const refusal = section.getByText(
      /^Status callback URL host nowhere\.invalid does not resolve/,
    );
    await expect(refusal).toBeVisible({ timeout: 15_000 });
    await expect(section).not.toContainText('statusCallbackUrl');
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    await url.fill('https://nowhere.invalid/sms-status-2');
    await expect(refusal).toHaveCount(0);
    await expect(url).not.toHaveAttribute('aria-invalid', 'true');
  });

  test("Reset Secret's question keeps the spec's sentence and says until when a grace period lets the old secret work", async ({
    page,
    user,
  }) => {
    const client = await createClientViaApi(user, 'Rotating');
    await loginAs(page, user);
    await page.goto(`/#/clients/${client.id}`);
    await page.getByRole('button', { name: 'Reset Secret' }).click();
    const dialog = page.getByRole('alertdialog', { name: RESET_QUESTION });
    await expect(dialog).toBeVisible();
    const until = dialog.getByText(/old secret keeps working until/);
    await expect(until).toHaveCount(0);
    await dialog
      .getByLabel('Keep the old secret working for')
      .selectOption({ label: '7 days' });
    await expect(until).toHaveText(
      /^With this grace period, the old secret keeps working until .*\d{4}.*\d{2}:\d{2}.*\.$/,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('the audit log refuses a target that is no UUID and no digits by naming the field and the forms it takes', async ({
    page,
  }) => {
    await loginAs(page, ADMIN);
    // A link (or a hand-edited URL) with a bad target: the API's refusal names the filter.
    // (Digits are a target too: a price prefix or a number.)
    await page.goto('/#/admin/audit?target=x44');
    await expect(
      page.getByText(
        /^Target ID must be a UUID such as [0-9a-f-]{36}, or the digits of a price prefix or number$/,
      ),
    ).toBeVisible();
    await expect(page.getByText('Invalid id')).toHaveCount(0);

    // Typed in the filters: refused before any call, the same way.
    await page.goto('/#/admin/audit');
    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Actor user ID').fill('42');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await expect(
      filters.getByText(/^Actor user ID must be a UUID such as [0-9a-f-]{36}$/),
    ).toBeVisible();
  });
});
