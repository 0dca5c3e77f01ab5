import {
  createClientViaApi,
  expect,
  grantCreditViaApi,
  loginAs,
  test,
} from './fixtures.ts';

/** Issue 20: a bulk send from a file, watched to the end, and a scheduled send cancelled. */
test.describe('Campaigns', () => {
  test('upload a CSV with a bad line and a duplicate, fix it, send, watch the batch deliver, open its messages', async ({
    page,
    user,
  }) => {
    test.setTimeout(90_000);
    const client = await createClientViaApi(user, 'Campaigns');
    await grantCreditViaApi(client.id, '5');
    await loginAs(page, user);
    await page.goto('/#/messaging/bulk');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Bulk send' }),
    ).toBeVisible();

    await page.getByLabel('Upload a CSV or text file').setInputFiles({
      name: 'reminders.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'phone,name\n+44 7700 900001,Ada\nnot-a-number,Bea\n447700900001,Ada\n447700900002,Cid\n',
      ),
    });
    const counts = page
      .getByRole('region', { name: 'Recipients' })
      .getByRole('status');
    await expect(counts).toContainText('2 valid recipients');
    await expect(counts).toContainText('1 duplicate removed');
    await expect(counts).toContainText('1 bad line');
    await expect(page.getByRole('list', { name: 'Bad lines' })).toContainText(
      'Line 3: not-a-number',
    );

    // Fixed in place.
    const recipients = page.getByLabel('Phone numbers');
    await recipients.fill(
      (await recipients.inputValue()).replace('not-a-number', '447700900003'),
    );
    await expect(counts).toContainText('3 valid recipients');
    await expect(counts).toContainText('0 bad lines');
    await page.getByLabel('Body').fill('Your appointment is tomorrow');
    const price = page.getByRole('region', { name: 'Price' });
    await expect(price.getByText('Balance after')).toBeVisible();
    await expect(price.locator('dd').first()).toHaveText(/^EUR \d+\.\d{2}$/);

    await page.getByRole('button', { name: 'Send to 3 recipients' }).click();
    const dialog = page.getByRole('alertdialog', {
      name: /^Send this message to 3 recipients for EUR \d+\.\d{2}\?$/,
    });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/#\/messaging\/bulk\/[0-9a-f-]{36}$/);

    await expect(
      page.getByRole('progressbar', { name: 'Messages in a final state' }),
    ).toHaveAttribute('aria-valuetext', '3 of 3 final (100 %)', {
      timeout: 45_000,
    });
    await expect(
      page.getByRole('list', { name: 'Messages by state' }),
    ).toHaveText('Delivered 3');

    await page
      .getByRole('link', { name: 'Open its messages in the Message Log' })
      .click();
    await expect(page).toHaveURL(/#\/messaging\/log\?batchId=[0-9a-f-]{36}$/);
    await expect(
      page.getByRole('table', { name: 'Messages 1 to 3 of 3' }),
    ).toBeVisible();
  });

  test('schedule a single send an hour ahead and cancel it from the Message Log: refunded', async ({
    page,
    user,
  }) => {
    test.setTimeout(60_000);
    const client = await createClientViaApi(user, 'Reminders');
    await grantCreditViaApi(client.id, '1');
    await loginAs(page, user);
    const widget = page.getByRole('region', { name: 'Balance', exact: true });
    await page.goto('/#/messaging/sms');
    await expect(widget.getByText('EUR 1.00')).toBeVisible();

    await page.getByLabel('Recipient').fill('+44 7700 900123');
    await page.getByLabel('Body').fill('See you later');
    await page.getByRole('checkbox', { name: 'Send later' }).check();
    const later = await page.evaluate(() => {
      const d = new Date(Date.now() + 3_600_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    });
    await page.getByLabel(/^Send at \(UTC/).fill(later);
    const sent = page.waitForRequest(/\/messages\/sms$/);
    await page.getByRole('button', { name: 'Send SMS' }).click();
    expect((await sent).postDataJSON()).toMatchObject({
      recipient: '447700900123',
      sendAt: expect.stringMatching(
        new RegExp(`^${later}:00(Z|[+-]\\d{2}:\\d{2})$`),
      ),
    });
    await expect(page.getByRole('status')).toHaveText('SMS Scheduled');
    await expect(widget.getByText('EUR 1.00')).not.toBeVisible();

    await page.getByRole('link', { name: 'Message Log' }).last().click();
    const panel = page.getByRole('dialog', { name: 'Message' });
    await panel
      .getByRole('button', { name: 'Cancel scheduled message' })
      .click();
    await page
      .getByRole('alertdialog', {
        name: /^Cancel this message to 447700900123\?/,
      })
      .getByRole('button', { name: 'OK' })
      .click();
    const fields = panel.getByRole('region', { name: 'Message' });
    await expect(fields.getByText('Canceled', { exact: true })).toBeVisible();
    await expect(fields.getByText('Refunded')).toBeVisible();
    await expect(widget.getByText('EUR 1.00')).toBeVisible();
  });
});
