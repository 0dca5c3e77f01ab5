import {
  expect,
  expectNoSeriousA11yViolations,
  loginAs,
  submitLogin,
  test,
} from './fixtures.ts';

test.describe('Login', () => {
  test('shows the product name, the fields and passes axe', async ({
    page,
  }) => {
    await page.goto('/#/login');
    await expect(
      page.getByRole('heading', { name: 'Login to Skyline Console' }),
    ).toBeVisible();
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByLabel('Password')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect(page.getByText('Powered by Skyline Telecom')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('stores the credentials and goes to the home; with no client, Quick Start', async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    await expect(page).toHaveURL(/#\/quickstart$/);
    const stored = await page.evaluate(() => ({
      email: localStorage.getItem('email'),
      password: localStorage.getItem('password'),
    }));
    expect(stored).toEqual({ email: user.email, password: user.password });
    await expect(
      page.getByRole('button', { name: `Hello ${user.firstName}` }),
    ).toBeVisible();
  });

  test('refused credentials come back to the login screen with a message', async ({
    page,
    user,
  }) => {
    await submitLogin(page, {
      email: user.email,
      password: 'not-the-password',
    });
    await expect(page).toHaveURL(/#\/login$/);
    await expect(page.getByRole('alert')).toHaveText(
      'Your e-mail or password was not accepted. Please log in again.',
    );
    const stored = await page.evaluate(() => [
      localStorage.getItem('email'),
      localStorage.getItem('password'),
    ]);
    expect(stored).toEqual([null, null]);
  });

  test('"Register new user" goes to the register screen', async ({ page }) => {
    await page.goto('/#/login');
    await page.getByRole('button', { name: 'Register new user' }).click();
    await expect(page).toHaveURL(/#\/register$/);
    await expect(
      page.getByRole('heading', { name: 'Register on Skyline Console' }),
    ).toBeVisible();
  });
});
