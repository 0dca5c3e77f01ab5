import { expect, loginAs, test } from './fixtures.ts';

test('Logout asks for confirmation; Cancel stays, OK clears the credentials', async ({
  page,
  user,
}) => {
  await loginAs(page, user);
  const menu = page.getByRole('button', { name: `Hello ${user.firstName}` });

  await menu.click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  const dialog = page.getByRole('alertdialog', {
    name: 'Are you sure you want to logout?',
  });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/#\/login/);

  await menu.click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  const stored = await page.evaluate(() => [
    localStorage.getItem('email'),
    localStorage.getItem('password'),
  ]);
  expect(stored).toEqual([null, null]);

  // Logged out for real: the shell sends back to /login.
  await page.goto('/#/billing/balance');
  await expect(page).toHaveURL(/#\/login$/);
});
