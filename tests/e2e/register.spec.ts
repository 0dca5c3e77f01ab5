import {
  expect,
  expectNoSeriousA11yViolations,
  loginAs,
  test,
  uniqueEmail,
} from './fixtures.ts';

test.describe('Register', () => {
  test('has every field and passes axe', async ({ page }) => {
    await page.goto('/#/register');
    await expect(
      page.getByRole('heading', { name: 'Register on Skyline Console' }),
    ).toBeVisible();
    for (const label of [
      'Email',
      'Password',
      'Confirm Password',
      'First Name',
      'Last Name',
      'Organization (optional)',
    ]) {
      await expect(page.getByLabel(label, { exact: true })).toBeVisible();
    }
    await expectNoSeriousA11yViolations(page);
  });

  test('registers, goes to /login, and the new user can log in', async ({
    page,
  }) => {
    const email = uniqueEmail('register');
    await page.goto('/#/register');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('password-123');
    await page.getByLabel('Confirm Password').fill('password-123');
    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByLabel('Organization (optional)').fill('Navy');
    await page.getByRole('button', { name: 'Register' }).click();

    await expect(page).toHaveURL(/#\/login$/);
    await expect(page.getByRole('status')).toHaveText(
      'Registration complete. Please log in.',
    );
    await loginAs(page, { email, password: 'password-123' });
    await expect(
      page.getByRole('button', { name: 'Hello Grace' }),
    ).toBeVisible();
  });

  test("mismatched passwords alert 'Passwords do not match.' and send nothing", async ({
    page,
  }) => {
    let sent = false;
    page.on('request', (request) => {
      if (request.url().includes('/api/register')) sent = true;
    });
    await page.goto('/#/register');
    await page.getByLabel('Email').fill(uniqueEmail('mismatch'));
    await page.getByLabel('Password', { exact: true }).fill('password-123');
    await page.getByLabel('Confirm Password').fill('password-321');
    await page.getByLabel('First Name').fill('Grace');
    await page.getByLabel('Last Name').fill('Hopper');
    await page.getByRole('button', { name: 'Register' }).click();

    await expect(page.getByRole('alert')).toHaveText('Passwords do not match.');
    await expect(page).toHaveURL(/#\/register$/);
    expect(sent).toBe(false);
  });

  test('a refused registration still goes to /login, which says why', async ({
    page,
    user,
  }) => {
    await page.goto('/#/register');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('password-123');
    await page.getByLabel('Confirm Password').fill('password-123');
    await page.getByLabel('First Name').fill('Again');
    await page.getByLabel('Last Name').fill('Twice');
    await page.getByRole('button', { name: 'Register' }).click();

    await expect(page).toHaveURL(/#\/login$/);
    await expect(page.getByRole('alert')).toHaveText(
      'Registration failed: This email is already registered',
    );
  });

  test("'Go to Login' goes to the login screen", async ({ page }) => {
    await page.goto('/#/register');
    await page.getByRole('button', { name: 'Go to Login' }).click();
    await expect(page).toHaveURL(/#\/login$/);
  });
});
