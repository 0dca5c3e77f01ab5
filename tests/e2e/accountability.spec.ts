import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  ADMIN,
  basicAuth,
  createClientViaApi,
  expect,
  loginAs,
  registerViaApi,
  test,
  uniqueEmail,
} from './fixtures.ts';

// Issue 12 end to end, written against the "Accountability" section of CONTRACT.md: the
// ledger behind both history tabs, the low-balance warning, admin search and key rotation.

/** Clicks a Download CSV button and returns the saved file's text. */
async function downloadCsv(page: Page, region: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page
    .getByRole('region', { name: region })
    .getByRole('button', { name: 'Download CSV' })
    .click();
  const file = await (await download).path();
  return readFile(file, 'utf8');
}

test.describe('Accountability', () => {
  test('credit with a reason → Top-up History → SMS → Usage History with its chart → both in the CSV; the threshold warns', async ({
    page,
    browser,
    request,
  }) => {
    const customer = await registerViaApi({
      email: uniqueEmail('ledger'),
    });
    const client = await createClientViaApi(customer, 'Alerts');

    // Staff set a low-balance threshold on the admin client page, then grant credit there.
    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await loginAs(staff, ADMIN);
    await staff.goto(`/#/admin/clients/${client.id}`);
    const threshold = staff.getByRole('region', {
      name: 'Low-balance threshold',
    });
    await threshold.getByLabel('Minimum balance').fill('5');
    await threshold.getByRole('button', { name: 'Save Threshold' }).click();
    await expect(
      threshold.getByText('The customer is warned below EUR 5.00.'),
    ).toBeVisible();

    // Staff grant the free credit with a reason in the Balance card's panel.
    await staff
      .getByRole('button', { name: /^Balance EUR 0\.00: give free credit/ })
      .click();
    const creditPanel = staff.getByRole('dialog', { name: 'Free Credit' });
    await creditPanel.getByLabel('Amount').fill('1.00');
    await creditPanel.getByLabel('Reason').fill('Welcome credit');
    await creditPanel.getByRole('button', { name: 'Give Free Credit' }).click();
    const grant = staff.waitForRequest(/\/freecredit$/);
    await staff
      .getByRole('alertdialog', {
        name: 'Are you sure you want to give 1 free credit to the client?',
      })
      .getByRole('button', { name: 'OK' })
      .click();
    expect((await grant).postDataJSON()).toEqual({
      amount: '1',
      reason: 'Welcome credit',
    });
    await expect(creditPanel).toBeHidden();
    await expect(
      staff.getByRole('button', {
        name: /^Balance EUR 1\.00: give free credit/,
      }),
    ).toBeVisible();
    await staffContext.close();

    await loginAs(page, customer);
    const widget = page.getByRole('region', { name: 'Balance', exact: true });
    await expect(widget.getByText('EUR 1.00')).toBeVisible();
    await expect(widget.getByRole('status')).toHaveText(
      /Low balance: below EUR 5\.00/,
    );

    await page.goto('/#/billing/balance');
    const topups = page.getByRole('table', { name: /^Top-ups 1 to 1 of 1/ });
    await expect(topups.getByRole('row').nth(1)).toContainText(
      'Welcome credit',
    );
    await expect(topups.getByRole('row').nth(1)).toContainText('EUR 1.00');
    const topupCsv = await downloadCsv(page, 'Top-up History');
    expect(topupCsv).toContain('Welcome credit');

    await page.goto('/#/messaging/sms');
    await page.getByLabel('Recipient').fill('447700900123');
    await page.getByLabel('Body').fill('Your code is 1234');
    const sent = page.waitForResponse(/\/messages\/sms$/);
    await page.getByRole('button', { name: 'Send SMS' }).click();
    const { id: messageId } = (await (await sent).json()) as { id: string };
    await expect(
      page.getByRole('status').filter({ hasText: 'SMS Sent' }),
    ).toBeVisible();

    await page.goto('/#/billing/balance');
    await page.getByRole('tab', { name: 'Usage History' }).click();
    const debits = page.getByRole('table', {
      name: /^Messages paid 1 to 1 of 1/,
    });
    const debit = debits.getByRole('row').nth(1);
    await expect(debit).toContainText('447700900123');
    await expect(debit).toContainText('EUR 0.05');
    // The row names its message by a link to the Message Log with that message open.
    await expect(
      debit.getByRole('link', {
        name: /^View the message to 447700900123 of /,
      }),
    ).toHaveAttribute('href', `#/messaging/log?message=${messageId}`);

    const chart = page.getByRole('img', {
      name: /^Chart of messages and amount per day/,
    });
    await expect(chart.locator('canvas')).toBeVisible();
    await expect(
      // Days read as everywhere in the console: 'Nov 23, 2026'.
      page.getByText(
        /^1 message, 1 segment, EUR 0\.05 from [A-Z][a-z]{2} \d{1,2}, \d{4}/,
      ),
    ).toBeVisible();
    await page.getByText('Show the figures per day').click();
    const today = new Date().toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    await expect(
      page
        .getByRole('table', { name: 'Usage per day' })
        .getByRole('row', { name: new RegExp(`^${today}`) }),
    ).toContainText('EUR 0.05');

    const usageCsv = await downloadCsv(page, 'Usage History');
    expect(usageCsv).toContain('SMS');
    // The whole ledger holds both: the credit with its reason and the debit.
    const ledgerCsv = await request.get(
      `/api/clients/${client.id}/balances/default/ledger.csv`,
      {
        headers: {
          authorization: basicAuth(customer.email, customer.password),
        },
      },
    );
    expect(ledgerCsv.status()).toBe(200);
    const whole = await ledgerCsv.text();
    expect(whole).toContain('FREE_CREDIT');
    expect(whole).toContain('Welcome credit');
    expect(whole).toContain('SMS');
  });

  test('staff find a customer by part of the e-mail, and the search stays in the URL', async ({
    page,
  }) => {
    const email = uniqueEmail('findme');
    const customer = await registerViaApi({ email });
    await registerViaApi(); // someone else, who must not match
    const part = email.slice(7, 15).toUpperCase();

    await loginAs(page, ADMIN);
    await page.goto('/#/admin/users');
    await page.getByRole('searchbox', { name: 'Search users' }).fill(part);
    await expect(page).toHaveURL(
      new RegExp(`#/admin/users\\?q=${encodeURIComponent(part)}$`),
    );
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(customer.email);

    await page.reload();
    await expect(
      page.getByRole('searchbox', { name: 'Search users' }),
    ).toHaveValue(part);
    await expect(rows.nth(1)).toContainText(customer.email);
  });

  test('rotating a secret with a grace period keeps both secrets working, and shows the last use', async ({
    page,
    user,
    request,
  }) => {
    const client = await createClientViaApi(user, 'Integration');
    const asClient = (secret: string) =>
      request.get(`/api/clients/${client.id}/balances/default`, {
        headers: { authorization: basicAuth(client.id, secret) },
      });
    expect((await asClient(client.secret)).status()).toBe(200);

    await loginAs(page, user);
    await page.goto(`/#/clients/${client.id}`);
    // The last use is recorded off the request's path: it may land a moment later.
    const card = page.getByRole('button', {
      name: 'Integration: edit the name',
    });
    await expect(async () => {
      await page.reload();
      await expect(card).toContainText('Secret last used', { timeout: 2_000 });
      await expect(card).not.toContainText('Secret last usedNever', {
        timeout: 500,
      });
    }).toPass({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Reset Secret' }).click();
    const dialog = page.getByRole('alertdialog', {
      name: 'Are you sure you want to reset the secret? The existing secret will no longer be usable',
    });
    await dialog
      .getByLabel('Keep the old secret working for')
      .selectOption({ label: '1 hour' });
    const reset = page.waitForRequest(/\/resetSecret$/);
    await dialog.getByRole('button', { name: 'OK' }).click();
    expect((await reset).postDataJSON()).toEqual({ graceSeconds: 3600 });

    const panel = page.getByRole('dialog', { name: 'New secret' });
    await panel.getByRole('button', { name: 'Show secret' }).click();
    const newSecret = await panel.getByLabel('Client secret').inputValue();
    expect(newSecret).not.toBe(client.secret);
    await expect(
      page.getByText(/^The previous secret keeps working until /),
    ).toBeVisible();

    expect((await asClient(newSecret)).status()).toBe(200);
    expect((await asClient(client.secret)).status()).toBe(200);
  });
});
