import {
  createClientViaApi,
  expect,
  expectNoSeriousA11yViolations,
  loginAs,
  test,
} from './fixtures.ts';

test.describe('Inbound callback URL', () => {
  test('the owner sets it on the client page, it stays after a reload with the key that signs it, and a refusal names the field as labelled', async ({
    page,
    user,
  }) => {
    const client = await createClientViaApi(user, 'Replies');
    await loginAs(page, user);
    await page.goto(`/#/clients/${client.id}`);
    const section = page.getByRole('region', { name: 'Status Callback' });
    const inbound = section.getByLabel('Inbound callback URL');
    await expect(inbound).toHaveValue('');
    await expect(section.getByLabel('Signing key')).toHaveCount(0);

    // The server's own refusal (the name does not resolve), in the form's words.
    await inbound.fill('https://nowhere.invalid/sms-inbound');
    await section.getByRole('button', { name: 'Save' }).click();
    const refusal = section.getByText(
      /^Inbound callback URL host nowhere\.invalid does not resolve/,
    );
    await expect(refusal).toBeVisible({ timeout: 15_000 });
    await expect(section).not.toContainText('inboundCallbackUrl');
    await expect(inbound).toHaveAttribute('aria-invalid', 'true');

    await inbound.fill('http://127.0.0.1:9/sms-inbound');
    await expect(refusal).toHaveCount(0);
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(
      page.getByText('The inbound callback URL has been saved').last(),
    ).toBeVisible();
    // Its first URL gave the client the signing key.
    await expect(section.getByLabel('Signing key')).toHaveValue('••••••');

    await page.reload();
    await expect(inbound).toHaveValue('http://127.0.0.1:9/sms-inbound');
    await expect(section.getByLabel('Status callback URL')).toHaveValue('');
    await expectNoSeriousA11yViolations(page);

    // An empty field stops it.
    await inbound.fill('');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(
      page.getByText('The inbound callback URL has been saved').last(),
    ).toBeVisible();
    await page.reload();
    await expect(inbound).toHaveValue('');
  });
});
