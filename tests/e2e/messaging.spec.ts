import {
  ADMIN,
  basicAuth,
  createClientViaApi,
  expect,
  grantCreditViaApi,
  loginAs,
  registerViaApi,
  test,
} from './fixtures.ts';

test.describe('Messaging', () => {
  test('register → login → create client → see secret → credit → send SMS → balance drops', async ({
    page,
  }) => {
    const user = await registerViaApi({ firstName: 'Grace' });
    await loginAs(page, user);
    await expect(page).toHaveURL(/#\/quickstart$/);

    await page.getByRole('button', { name: 'Create Client' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Alerts');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Create Client' })
      .click();
    const panel = page.getByRole('dialog', { name: 'Client created' });
    await expect(panel.getByLabel('Client secret')).toHaveValue('••••••');
    const clientId = await panel.getByLabel('Client ID').inputValue();
    await panel.getByRole('button', { name: 'Close Panel' }).click();

    const widget = page.getByRole('region', { name: 'Balance', exact: true });
    await expect(widget.getByText('EUR 0.00')).toBeVisible();
    await grantCreditViaApi(clientId, '1.00');
    await page.reload();
    await expect(widget.getByText('EUR 1.00')).toBeVisible();

    await page
      .getByRole('region', { name: 'Send an SMS' })
      .getByRole('link', { name: 'Send an SMS' })
      .click();
    await expect(page).toHaveURL(/#\/messaging\/sms$/);
    await expect(page.getByLabel('Sender')).toHaveValue('Skyline');
    await expect(page.getByLabel('Sender')).not.toBeEditable();

    await page.getByLabel('Recipient').fill('+44 7700-900.123');
    await page.getByLabel('Body').fill('Your code is 1234');
    await page.getByLabel('Reference').fill('login-code');
    const sent = page.waitForRequest(/\/messages\/sms$/);
    await page.getByRole('button', { name: 'Send SMS' }).click();
    expect((await sent).postDataJSON()).toEqual({
      sender: 'Skyline',
      recipient: '447700900123',
      body: 'Your code is 1234',
      reference: 'login-code',
    });
    await expect(page.getByRole('status')).toHaveText('SMS Sent');
    await expect(page.getByLabel('Body')).toHaveValue('');
    await expect(page.getByLabel('Recipient')).toHaveValue('');
    await expect(widget.getByText('EUR 0.95')).toBeVisible();
  });

  test('the JSON preview and the segment counter follow the form live', async ({
    page,
    user,
  }) => {
    const client = await createClientViaApi(user);
    await grantCreditViaApi(client.id, '0.2');
    await loginAs(page, user);
    await page.goto('/#/messaging/sms');
    await page.getByLabel('Recipient').fill('+1 555 0100');
    await page.getByLabel('Body').fill('Grüße 😀');
    const preview = page.getByRole('region', { name: 'JSON preview' });
    await expect(preview).toContainText('"recipient": "15550100"');
    await expect(preview).toContainText('"body": "Grüße 😀"');
    await expect(page.getByText('UCS-2 because of: 😀')).toBeVisible();
    await page.getByLabel('Body').fill('x'.repeat(400));
    const counter = page.locator('dl').filter({ hasText: 'Encoding' });
    await expect(counter).toContainText('GSM-7');
    await expect(counter).toContainText('Segments3');
    await expect(counter).toContainText('PriceEUR 0.15');
    await expect(counter).toContainText('Balance after sendingEUR 0.05');
  });

  test("validation alerts block sending; 402 says 'Failed to send. Not enough Balance.'", async ({
    page,
    user,
  }) => {
    await createClientViaApi(user);
    await loginAs(page, user);
    await page.goto('/#/messaging');
    await expect(page).toHaveURL(/#\/messaging\/sms$/);
    const send = page.getByRole('button', { name: 'Send SMS' });
    await send.click();
    await expect(page.getByRole('alert')).toHaveText(
      'Recipient cannot be empty',
    );
    await page.getByLabel('Recipient').fill('447700900123');
    await send.click();
    await expect(page.getByRole('alert')).toHaveText('Body cannot be empty');

    await page.getByLabel('Body').fill('No money, no message');
    await send.click();
    await expect(page.getByRole('alert')).toHaveText(
      'Failed to send. Not enough Balance.',
    );
    await expect(page.getByLabel('Body')).toHaveValue('No money, no message');
    await expect(
      page
        .getByRole('region', { name: 'Balance', exact: true })
        .getByText('EUR 0.00'),
    ).toBeVisible();
  });
});

test('a 403 (the SMS role removed) logs out and goes to /login', async ({
  page,
  user,
  request,
}) => {
  const client = await createClientViaApi(user);
  await grantCreditViaApi(client.id, '1');
  const removed = await request.put(
    `/api/admin/users/${user.id}/roles/remove`,
    {
      headers: { authorization: basicAuth(ADMIN.email, ADMIN.password) },
      data: { role: 'ROLE_SMS_CREATE' },
    },
  );
  expect(removed.status(), await removed.text()).toBeLessThan(300);
  await loginAs(page, user);
  await page.goto('/#/messaging/sms');
  await page.getByLabel('Recipient').fill('447700900123');
  await page.getByLabel('Body').fill('Not allowed');
  await page.getByRole('button', { name: 'Send SMS' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByRole('alert')).toHaveText(
    'Your account is not allowed to do that. Please log in again.',
  );
  const stored = await page.evaluate(() => localStorage.getItem('password'));
  expect(stored).toBeNull();
});
