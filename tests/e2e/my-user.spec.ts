import { basicAuth, expect, loginAs, submitLogin, test } from './fixtures.ts';

test.describe('My User and Change Password', () => {
  test('Update My User persists, and a new e-mail keeps the user logged in', async ({
    page,
    user,
    request,
  }) => {
    await loginAs(page, user);
    await page.goto('/#/users/me');
    await expect(
      page.getByRole('heading', { name: 'Update My User' }),
    ).toBeVisible();
    await expect(page.getByLabel('User ID')).toHaveValue(user.id);
    await expect(page.getByLabel('User ID')).not.toBeEditable();

    const email = `renamed-${user.email}`;
    await page.getByLabel('First Name').fill('Augusta');
    await page.getByLabel('Organization').fill('Difference Engines');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'Your user has been updated',
    );
    await expect(
      page.getByRole('button', { name: 'Hello Augusta' }),
    ).toBeVisible();

    // A fresh load with no client opens Quick Start (spec §4): come back to My User.
    await page.reload();
    await expect(page).toHaveURL(/#\/quickstart$/);
    await page.goto('/#/users/me');
    await expect(page.getByLabel('First Name')).toHaveValue('Augusta');
    await expect(page.getByLabel('Email')).toHaveValue(email);
    const me = await request.get('/api/users/me', {
      headers: { authorization: basicAuth(email, user.password) },
    });
    expect(await me.json()).toMatchObject({
      firstName: 'Augusta',
      organization: 'Difference Engines',
      email,
    });
  });

  test('Change Password: disabled until the two match; 422 and 400 say why', async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    await page.goto('/#/users/me/password');
    const button = page.getByRole('button', { name: 'Update Password' });
    await expect(button).toBeDisabled();
    await page.getByLabel('Current Password').fill('wrong-password');
    await page
      .getByLabel('New Password', { exact: true })
      .fill('new-password-1');
    await page.getByLabel('Confirm New Password').fill('new-password-2');
    await expect(button).toBeDisabled();
    await page.getByLabel('Confirm New Password').fill('new-password-1');
    await expect(button).toBeEnabled();
    await button.click();
    await expect(page.getByRole('alert')).toHaveText(
      'Invalid current password. Please try again.',
    );

    await page.getByLabel('Current Password').fill(user.password);
    await page.getByLabel('New Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm New Password').fill('short');
    await button.click();
    await expect(page.getByRole('alert')).toHaveText(
      'Invalid new password. Please try again',
    );
    await expect(page).toHaveURL(/#\/users\/me\/password$/);
  });

  test('Change Password success forces a new login with the new password', async ({
    page,
    user,
  }) => {
    await loginAs(page, user);
    await page.goto('/#/users/me/password');
    await page.getByLabel('Current Password').fill(user.password);
    await page
      .getByLabel('New Password', { exact: true })
      .fill('brand-new-pass');
    await page.getByLabel('Confirm New Password').fill('brand-new-pass');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page).toHaveURL(/#\/login$/);
    await expect(page.getByRole('status')).toHaveText(
      'Password changed successfully. Please login again with the new password.',
    );

    await submitLogin(page, { email: user.email, password: user.password });
    await expect(page.getByRole('alert')).toHaveText(
      'Your e-mail or password was not accepted. Please log in again.',
    );
    await loginAs(page, { email: user.email, password: 'brand-new-pass' });
    await expect(page.getByRole('button', { name: 'Hello Ada' })).toBeVisible();
  });
});
