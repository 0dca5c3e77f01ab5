import { expect, loginAs, test } from './fixtures.ts';

test.describe('Guard and Page Not Found', () => {
  for (const path of ['/', '/billing/balance', '/clients', '/no-such-page']) {
    test(`a logged-out user opening #${path} lands on /login`, async ({
      page,
    }) => {
      await page.goto(`/#${path}`);
      await expect(page).toHaveURL(/#\/login$/);
      await expect(
        page.getByRole('heading', { name: 'Login to Skyline Console' }),
      ).toBeVisible();
    });
  }

  test('only the e-mail stored is not logged in', async ({ page }) => {
    await page.goto('/#/login');
    await page.evaluate(() => localStorage.setItem('email', 'a@example.test'));
    await page.goto('/#/billing/balance');
    await expect(page).toHaveURL(/#\/login$/);
  });

  test('an unknown route inside the shell shows Page Not Found', async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    await expect(page).toHaveURL(/#\/quickstart$/);
    await page.goto('/#/this/does/not/exist');
    await expect(
      page.getByRole('heading', { name: 'Page Not Found' }),
    ).toBeVisible();
    await expect(page.getByRole('banner')).toBeVisible();
  });
});
